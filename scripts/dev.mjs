// `npm run dev`: the playground. One Vite dev server (hot reload) serves `index.html`, which mounts the widget from
// `src/`, and the demo's reference service, integrator and store run in the same process, started by `startDemo`
// (demo/demo-servers.ts, loaded from source through Vite, so nothing needs building first). The service admits the
// playground's origin. PORT (default 8787) moves the service, DEV_PORT (default 5173) the playground; 0 picks a free
// one. Conversations live in memory (DATA_DIR keeps them). Ctrl-C stops everything.
import { resolve } from 'node:path';
import { createServer } from 'vite';

const root = resolve(import.meta.dirname, '..');
const devPort = Number(process.env.DEV_PORT ?? 5173);
const servicePort = Number(process.env.PORT ?? 8787);

/** The page's defaults, filled in per request: the service's URL is known only once it listens, after Vite. */
const pageValues = { serviceUrl: '', identityToken: '' };

const vite = await createServer({
  root,
  configFile: resolve(root, 'vite.config.ts'),
  server: {
    port: devPort,
    strictPort: devPort !== 0,
    host: '127.0.0.1',
    // What the service writes (PGlite, when DATA_DIR is set) and what builds and tests write is not source.
    watch: { ignored: ['**/.data/**', '**/dist/**', '**/test-results/**', '**/bench-results/**'] },
  },
  // The config's build inputs would otherwise be the pages scanned for dependencies to pre-bundle.
  optimizeDeps: { entries: ['index.html'] },
  plugins: [
    {
      name: 'service:playground-values',
      transformIndexHtml: (html) =>
        html
          .replaceAll('%SERVICE_URL%', pageValues.serviceUrl)
          .replaceAll('%IDENTITY_TOKEN%', pageValues.identityToken),
    },
  ],
});

let demo;
try {
  await vite.listen();
  const address = vite.httpServer?.address();
  const port = typeof address === 'object' && address ? address.port : devPort;
  const playgroundUrl = `http://127.0.0.1:${port}`;
  const { startDemo } = await vite.ssrLoadModule('/demo/demo-servers.ts');
  const { demoIdentityToken } = await vite.ssrLoadModule('/demo/store-server.ts');
  demo = await startDemo({
    servicePort,
    logLevel: process.env.LOG_LEVEL || 'warn',
    // An empty DATA_DIR is no folder (PGlite would take it for the working directory): in memory, like unset.
    dataDir: process.env.DATA_DIR || undefined,
    extraOrigins: [playgroundUrl, `http://localhost:${port}`],
  });
  pageValues.serviceUrl = demo.serviceUrl;
  // startDemo keeps DEMO_IDENTITY_SECRET (the demo's development one unless set): a token for "ada" lets the page
  // switch identityToken to a signed-in customer without a store back end.
  pageValues.identityToken = await demoIdentityToken(process.env.DEMO_IDENTITY_SECRET, 'ada');
  console.log(`Playground: ${playgroundUrl}/  (the widget from src/, hot reload)`);
  console.log(
    `Service:    ${demo.serviceUrl}/  (console: ${demo.serviceUrl}/console after \`npm run build\`)`,
  );
  console.log(`Integrator: ${demo.integratorUrl}/`);
  console.log('Ctrl-C stops both.');
} catch (error) {
  console.error(`dev: could not start: ${error instanceof Error ? error.message : String(error)}`);
  await Promise.allSettled([vite.close(), demo?.close()]);
  process.exit(1);
}

let closing = false;
const stop = (signal) => {
  if (closing) return;
  closing = true;
  console.log(`\n${signal}: stopping the playground and the service`);
  Promise.allSettled([vite.close(), demo.close()]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
