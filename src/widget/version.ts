/** The widget's version, reported by `window.Service.version`. Keep in step with `package.json`. */
export const VERSION = '0.1.0';
