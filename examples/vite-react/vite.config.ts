import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// 5174 for `vite` and `vite preview`: 5173 is the demo store of `npm start` in the service-widget checkout.
export default defineConfig({
  plugins: [react()],
  server: { port: 5174, strictPort: true },
  preview: { port: 5174, strictPort: true },
});
