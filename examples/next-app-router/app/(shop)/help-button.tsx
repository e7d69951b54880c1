'use client';

import { useService } from 'service-widget/react';

export function HelpButton() {
  const service = useService(); // null until the widget has loaded
  return (
    <button type="button" disabled={!service} onClick={() => service?.openChat()}>
      Help
    </button>
  );
}
