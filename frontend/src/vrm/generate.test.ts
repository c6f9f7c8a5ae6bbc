/// <reference types="node" />
// The checked-in VRM test models are what tests/vrm/generate.mjs makes: a
// change to the script must come with the files it writes.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs script without types
import { generate } from '../../tests/vrm/generate.mjs';

describe('the generated VRM test models', () => {
  it('are the checked-in files, byte for byte', () => {
    const files = generate() as Record<string, Uint8Array>;
    expect(Object.keys(files).sort()).toEqual(['cheer.vrma', 'yui-test-0.x.vrm', 'yui-test-1.0.vrm']);
    for (const [name, bytes] of Object.entries(files)) {
      const kept = readFileSync(join(process.cwd(), 'tests', 'vrm', name));
      expect(Buffer.compare(Buffer.from(bytes), kept), `${name}: run node tests/vrm/generate.mjs`).toBe(0);
    }
  });
});
