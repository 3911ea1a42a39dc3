// first, before any chunk with zod in it loads
import './lib/zod-jitless';
import './fonts/fonts.css';
import './index.css';
import { afterFirstPaint } from './lib/after-first-paint';
import { preloadFirstScreen, SERVER_DATA_ID } from './app/screens';

/**
 * The entry is small and holds no React: it asks for the first screen's chunk and data at once,
 * then loads the app (React, the router; index.html preloads them), so the screen's code downloads
 * alongside the app's instead of after it has run (docs/product.md#tokens). A page the server rendered
 * (docs/decisions/031-server-rendered-first-page.md) is on screen first: the app that hydrates it runs after its first paint.
 */
const boot = () => {
  preloadFirstScreen(window.location);
  void import('./app/start').then(({ start }) => start(document.getElementById('root')!));
};
if (document.getElementById(SERVER_DATA_ID)) afterFirstPaint(boot);
else boot();
