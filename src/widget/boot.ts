// The script-tag entry, `dist/widget.js`, which the loader injects as
// `<script type="module" src=".../widget.js?widgetId=…">`. Importing it mounts the widget.
import { bootFromScript } from './script-boot';

bootFromScript(import.meta.url);
