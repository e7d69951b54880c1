// Ids are scoped to the widget's shadow root, so these cannot collide with the host page's.
export const PANEL_ID = 'service-panel';
export const TITLE_ID = 'service-title';
export const INPUT_ID = 'service-input';
