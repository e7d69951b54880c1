// The script-tag loader (`dist/loader.js`): no exports, so the IIFE build assigns no global.
import { runLoader } from './run-loader';

// `currentScript` must be read now: it is null once this script has finished running.
runLoader(window, document.currentScript as HTMLScriptElement | null);
