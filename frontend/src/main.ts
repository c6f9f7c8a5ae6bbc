// One page, three windows (pet, settings, messages): the role the shell (or the query string) names
// decides which view boots. Each view is its own chunk, so the pet window
// never loads the settings form and the other way round.
import { guardDrops } from './dropguard';
import { earlySocket } from './earlysocket';
import { pageConfig } from './host';
import { initLanguage } from './i18n';

// First, before the page does anything: nothing dropped on the window may
// navigate it (src/dropguard.ts).
guardDrops(window);

async function boot(): Promise<void> {
  const cfg = await pageConfig();
  document.documentElement.dataset.role = cfg.role;
  // Before any string is made: every page speaks the UI language.
  initLanguage(cfg.lang ?? null);
  // The view socket opens now, while the role's chunk loads and its view
  // is built (src/earlysocket.ts).
  const socket = earlySocket(cfg.view_url);
  if (cfg.role === 'settings') {
    const { bootSettings } = await import('./settings/boot');
    bootSettings(cfg, socket);
  } else if (cfg.role === 'message') {
    const { bootMessages } = await import('./messageboot');
    bootMessages(cfg, socket);
  } else {
    const { bootPet } = await import('./petboot');
    bootPet(cfg, socket);
  }
}

boot();
