// Ids the settings page makes: a new preset's id (the protocol's
// "p-" + 8 lowercase hex digits) and a save request's id.

export type RandomFill = (bytes: Uint8Array) => Uint8Array;

const cryptoFill: RandomFill = (b) => crypto.getRandomValues(b);

function hex(n: number, fill: RandomFill): string {
  const b = fill(new Uint8Array(n));
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

/** A new preset id: "p-" + 8 lowercase hex digits from a CSPRNG. */
export function newPresetId(fill: RandomFill = cryptoFill): string {
  return 'p-' + hex(4, fill);
}

/** Makes request ids for save_settings: a counter for order, random digits
 * so two pages (or a reloaded one) never reuse one. */
export class RequestIds {
  private n = 0;
  private readonly tag: string;
  constructor(fill: RandomFill = cryptoFill) {
    this.tag = hex(4, fill);
  }
  next(): string {
    this.n++;
    return `save-${this.tag}-${this.n}`;
  }
}
