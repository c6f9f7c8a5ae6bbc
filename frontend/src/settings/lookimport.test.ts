/// <reference types="node" />
// The generated test models are read from tests/vrm (node's fs: this test runs in Node).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LookImport, MAX_MODEL_BYTES, checkModelFile, type ImportAnswer } from './lookimport';
import type { PageMessage } from '../protocol';

const models = join(process.cwd(), 'tests', 'vrm'); // vitest runs in frontend/
const model = readFileSync(join(models, 'yui-test-1.0.vrm'));
const head = (b: Uint8Array) => b.subarray(0, 12);

describe('the importer check in the page', () => {
  it('passes the generated models', () => {
    expect(checkModelFile('m.vrm', model.length, head(model))).toBeNull();
    const zero = readFileSync(join(models, 'yui-test-0.x.vrm'));
    expect(checkModelFile('Zero.VRM', zero.length, head(zero))).toBeNull();
  });

  it('refuses what is plainly not a model, saying what is wrong', () => {
    const clip = readFileSync(join(models, 'cheer.vrma'));
    expect(checkModelFile('cheer.vrma', clip.length, head(clip))).toMatch(/cheer\.vrma is a VRM animation, not a model/);
    expect(checkModelFile('photo.png', 100, new Uint8Array(12))).toBe('photo.png is not a VRM model (a .vrm file)');
    expect(checkModelFile('big.vrm', MAX_MODEL_BYTES + 1, head(model))).toBe('big.vrm is too large (65 MiB; a VRM look is at most 64 MiB)');
    expect(checkModelFile('tiny.vrm', 10, head(model))).toMatch(/too short/);
    const text = new TextEncoder().encode('{"asset": {"v');
    expect(checkModelFile('x.vrm', 500, text)).toMatch(/does not start as a glTF binary does/);
    const v1 = Uint8Array.from(head(model));
    v1[4] = 1;
    expect(checkModelFile('x.vrm', model.length, v1)).toMatch(/glTF binary version 1/);
    expect(checkModelFile('half.vrm', model.length >> 1, head(model))).toBe(`half.vrm is cut short: ${model.length >> 1} bytes of the ${model.length} its header declares`);
  });
});

describe('the importer', () => {
  function setup(answer: ImportAnswer | Error) {
    const sent: PageMessage[] = [];
    const uploads: string[] = [];
    const chosen: string[] = [];
    const imp = new LookImport({
      send: (m) => { sent.push(m); return true; },
      upload: async (f) => {
        uploads.push(f.name);
        if (answer instanceof Error) throw answer;
        return answer;
      },
      modelURL: (l) => `http://core/look/file?look=${l}`,
      thumbnail: async () => 'data:image/png;base64,AAAA',
    }, (l) => chosen.push(l));
    return { imp, sent, uploads, chosen, status: () => imp.el.querySelector('.look-import-status')! };
  }

  it('posts a good file and selects the new look in the form', async () => {
    const s = setup({ ok: true, look: 'mine', name: 'Yui test model' });
    await s.imp.importFile(new File([model], 'mine.vrm'));
    expect(s.uploads).toEqual(['mine.vrm']);
    expect(s.chosen).toEqual(['mine']);
    expect(s.status().textContent).toBe('Imported Yui test model. Save to wear it.');
    expect((s.status() as HTMLElement).dataset.kind).toBe('ok');
  });

  it('refuses a bad file before sending it, and shows the core refusal as it says it', async () => {
    const s = setup({ ok: false, error: 'the humanoid lacks required bones: head' });
    await s.imp.importFile(new File([model.subarray(0, 100)], 'cut.vrm'));
    expect(s.uploads).toEqual([]);
    expect(s.status().textContent).toMatch(/^cut\.vrm is cut short/);
    await s.imp.importFile(new File([model], 'nohead.vrm'));
    expect(s.uploads).toEqual(['nohead.vrm']);
    expect(s.chosen).toEqual([]);
    expect(s.status().textContent).toBe('nohead.vrm was not imported: the humanoid lacks required bones: head');
    const down = setup(new Error('Failed to fetch'));
    await down.imp.importFile(new File([model], 'a.vrm'));
    expect(down.status().textContent).toBe('a.vrm was not imported: Failed to fetch');
  });

  it('shows the chosen VRM look, renders missing thumbnails once', async () => {
    const s = setup({ ok: true });
    const realFetch = globalThis.fetch;
    const fetched: string[] = [];
    globalThis.fetch = (async (u: string) => { fetched.push(u); return new Response(new Uint8Array(model)); }) as typeof fetch;
    try {
      const looks = [{ id: 'mine', thumb: '', version: '1.0', breathing: 'off', touch_turns: false }];
      s.imp.show(looks, 'yui');
      s.imp.show(looks, 'mine');
      await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => setTimeout(r, 0));
      expect(fetched).toEqual(['http://core/look/file?look=mine']);
      expect(s.sent).toContainEqual({ type: 'look_thumbnail', look: 'mine', png: 'data:image/png;base64,AAAA' });
      expect(s.imp.el.querySelector('.look-options')).toBeNull(); // her options: lookoptions.ts
      s.imp.show(looks, 'mine');
      expect(fetched).toHaveLength(1); // asked once
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
