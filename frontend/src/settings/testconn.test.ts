import { describe, expect, it } from 'vitest';
import { byLabel, q, setup, state, type } from './test-fixtures';

const testButton = () => [...document.querySelectorAll('button')].find((b) => b.textContent === 'Test connection')!;
const result = () => q('.test-result');

describe('SettingsView: Test connection', () => {
  it('tests the backend as typed and offers the listed models', () => {
    const { view, sent } = setup();
    view.apply(state());
    type(byLabel('Base URL'), 'http://127.0.0.1:8080/v1');
    type(byLabel('API key'), 'sk-typed');
    testButton().click();
    const msg = sent.find((m) => m.type === 'test_connection');
    expect(msg).toEqual({ type: 'test_connection', request_id: 'r1', preset: 'p-0000000a', chat_api: 'push',
      chat_base_url: 'http://127.0.0.1:8080/v1', key: 'sk-typed' });
    expect(result().textContent).toBe('Testing…');
    expect(testButton().disabled).toBe(true);
    // An answer to another request is not this one.
    view.apply({ type: 'connection_test', request_id: 'r0', preset: 'p-0000000a', kind: 'ok', text: 'stale', models: ['old'] });
    expect(result().textContent).toBe('Testing…');
    view.apply({ type: 'connection_test', request_id: 'r1', preset: 'p-0000000a', kind: 'ok', text: 'Connected: 2 models listed.', models: ['m-a', 'm-b'] });
    expect(result().textContent).toBe('Connected: 2 models listed.');
    expect(result().dataset.kind).toBe('ok');
    expect(testButton().disabled).toBe(false);
    const list = document.getElementById(byLabel('Model').getAttribute('list')!) as HTMLDataListElement;
    expect([...list.options].map((o) => o.value)).toEqual(['m-a', 'm-b']);
    // And as a list to click: choosing one writes the field; typing stays free.
    const pick = byLabel<HTMLSelectElement>('Listed models');
    expect(pick.hidden).toBe(false);
    expect([...pick.options].map((o) => o.textContent)).toEqual(['Pick one…', 'm-a', 'm-b']);
    expect(pick.value).toBe('');
    pick.value = 'm-b';
    pick.dispatchEvent(new Event('change'));
    expect(byLabel('Model').value).toBe('m-b');
    expect(pick.value).toBe('m-b');
    type(byLabel('Model'), 'my-own-model');
    expect(byLabel('Model').value).toBe('my-own-model');
    expect(pick.value).toBe('');
  });

  it('hides the list to click until a test lists something', () => {
    const { view } = setup();
    view.apply(state());
    expect(byLabel<HTMLSelectElement>('Listed models').hidden).toBe(true);
    testButton().click();
    view.apply({ type: 'connection_test', request_id: 'r1', preset: 'p-0000000a', kind: 'ok', text: 'Connected; the server lists no models (type the model name).', models: [] });
    expect(byLabel<HTMLSelectElement>('Listed models').hidden).toBe(true);
  });

  it('sends no key when none was typed, and forgets a result when the URL changes', () => {
    const { view, sent } = setup();
    view.apply(state());
    testButton().click();
    const msg = sent.find((m) => m.type === "test_connection") as unknown as Record<string, unknown>;
    expect('key' in msg).toBe(false);
    view.apply({ type: 'connection_test', request_id: 'r1', preset: 'p-0000000a', kind: 'refused', text: 'The key was refused (HTTP 401). Check the key.', models: [] });
    expect(result().dataset.kind).toBe('refused');
    type(byLabel('Base URL'), 'http://elsewhere/v1');
    expect(result().textContent).toBe('');
  });

  it('names the cause, and offers "Choose its API" for a server that does not speak push', () => {
    const { view } = setup();
    view.apply(state());
    testButton().click();
    const choose = () => [...document.querySelectorAll('button')].find((b) => b.textContent === 'Choose its API')!;
    expect(choose().hidden).toBe(true);
    view.apply({ type: 'connection_test', request_id: 'r1', preset: 'p-0000000a', kind: 'failed', models: null, cause: 'not_push', settings: true,
      text: 'This server does not speak the push protocol (HTTP 404 on upgrade) — is it an OpenAI-compatible server? Choose its API in Settings.' });
    expect(result().textContent).toContain('HTTP 404 on upgrade');
    expect(choose().hidden).toBe(false);
    choose().click();
    expect(document.activeElement).toBe(byLabel('Chat API'));
    testButton().click();
    expect(choose().hidden).toBe(true);
    view.apply({ type: 'connection_test', request_id: 'r2', preset: 'p-0000000a', kind: 'unreachable', models: null, cause: 'refused',
      text: "Can't reach 127.0.0.1:9: connection refused — nothing is listening there. Is the server running?" });
    expect(result().textContent).toContain('connection refused');
    expect(choose().hidden).toBe(true);
    // A web page where the model list was due: the same offer.
    testButton().click();
    view.apply({ type: 'connection_test', request_id: 'r3', preset: 'p-0000000a', kind: 'failed', models: null, cause: 'not_api', settings: true,
      text: 'The server at 127.0.0.1:8080 answered, but not with a model list (it sent a web page) — is the API or the URL wrong? Check the Chat API and the base URL in Settings.' });
    expect(result().textContent).toContain('not with a model list');
    expect(choose().hidden).toBe(false);
  });
});
