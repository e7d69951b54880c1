// `npm start`: builds, then runs this (as dist/server/demo-start.js). The demo store on :5173, the service on :8787,
// the demo integrator on :8788; STORE_PORT, PORT and INTEGRATOR_PORT change them. The integrator's port is fixed
// because its URL is in the widgets' settings: with a new port at every start, the config file would differ each time,
// and each start would replace what the merchant saved in the console (docs/settings.md). Conversations are kept in .data/demo, so a restart resumes them (DATA_DIR moves it).
// EXTRA_ORIGINS (comma-separated) adds origins to the demo widgets' allowedOrigins: a storefront of one's own on
// another origin (Next on :3000) can then try the demo's service (issue 36).
//
// Output (docs/service.md, "Logs"): stdout carries the service's JSON lines only, as `service-widget serve` does, so
// `npm start | jq` and a log shipper work; the banner below (the URLs and keys a person wants) goes to stderr, which
// a terminal shows just the same. The demo logs at `warn` unless LOG_LEVEL says otherwise: a request line per widget
// call would bury the banner, and a person trying the demo wants to see problems, not traffic.
import { parseLogLevel } from '../src/server/platform/logger';
import {
  DEMO_ADMIN_KEY,
  DEMO_AGENTS,
  DEMO_SIGNING_SECRET,
  DEMO_SIGNING_SECRET_ENV,
  DEMO_TASK_KEY,
  startDemo,
} from './demo-servers';
import { parseExtraOrigins } from './extra-origins';

/** One line of the banner, on stderr. */
const say = (line: string) => process.stderr.write(`${line}\n`);

const storePort = Number(process.env.STORE_PORT ?? 5173);
const servicePort = Number(process.env.PORT ?? 8787);
const integratorPort = Number(process.env.INTEGRATOR_PORT ?? servicePort + 1);
// The demo mailbox's page at a port that stays put (a mail catcher's usual one), so a bookmark of it keeps working.
const mailboxPort = Number(process.env.MAILBOX_PORT ?? 8025);

const logLevel = parseLogLevel(process.env.LOG_LEVEL, 'warn');
if (!logLevel.ok) {
  say(`demo: could not start: ${logLevel.error}`);
  process.exit(1);
}
const extraOrigins = parseExtraOrigins(process.env.EXTRA_ORIGINS);
if (!extraOrigins.ok) {
  say(`demo: could not start: ${extraOrigins.error}`);
  process.exit(1);
}

try {
  // An empty DATA_DIR is unset, not the current folder (a database in the checkout's root).
  const dataDir = process.env.DATA_DIR || '.data/demo';
  const signingSecret = process.env[DEMO_SIGNING_SECRET_ENV] || DEMO_SIGNING_SECRET;
  if (signingSecret === DEMO_SIGNING_SECRET) {
    say(
      `Warning: calls to the integrator are signed with the demo's development secret; set ${DEMO_SIGNING_SECRET_ENV} ` +
        'to use your own (a real widget names its own variable in signingSecretEnv).',
    );
  }
  const demo = await startDemo({
    storePort,
    servicePort,
    integratorPort,
    mailboxPort,
    logLevel: logLevel.value,
    dataDir,
    signingSecret,
    extraOrigins: extraOrigins.value,
  });
  const port = new URL(demo.storeUrl).port;
  say(`Demo store: http://localhost:${port}/`);
  say(`  also: /iframe.html  /hostile.html  /csp.html  /spa/  /cart.html`);
  say(
    `  a product page (ask "does it come in blue?"): http://localhost:${port}/product.html?id=NL-MERINO-BLK`,
  );
  say(`  the chat inline on a help page:              http://localhost:${port}/help.html`);
  say(`  dark, right to left (Arabic):                http://localhost:${port}/?theme=dark&locale=ar`);
  say(
    `  signed in as a customer (identity token): http://localhost:${port}/?customer=ada  (her order: 1001)`,
  );
  say(`  tiny limits (a 429, then "Send again"):    http://localhost:${port}/?widget=demo-limited`);
  say(
    `  the team away (leave an email for the reply): http://localhost:${port}/?widget=demo-after-hours  ("Talk to a person" in the menu)`,
  );
  say(`Service:    ${demo.serviceUrl}/  (loader: ${demo.serviceUrl}/sdk/loader.js)`);
  if (extraOrigins.value.length)
    say(`  the demo widgets also allow (EXTRA_ORIGINS): ${extraOrigins.value.join(' ')}`);
  say(`Console:    ${demo.serviceUrl}/console  (admin key: ${DEMO_ADMIN_KEY})`);
  say(
    `Mailbox:    ${demo.mailboxUrl}/  (every email the service sends; a reply goes out about a minute after the agent writes)`,
  );
  for (const agent of DEMO_AGENTS) {
    // A key of the user's own (the variable was set) is not printed.
    const key = process.env[agent.keyEnv] === agent.key ? `key ${agent.key}` : `the key in ${agent.keyEnv}`;
    say(`  ${`${agent.name} (${agent.role}):`.padEnd(18)} ${key}`);
  }
  say(
    `Integrator: ${demo.integratorUrl}/  (custom actions and /feed.json, every call signature-checked; data in ${dataDir})`,
  );
  say(
    'Try asking the assistant: "Hi! Where is my order 1002?" (a guest then gives grace@example.com), ' +
      '"what payment methods do you take", "cancel order 1003", "I want to talk to someone", ' +
      '"Wo ist meine Bestellung 1001?" (signed in as ada, or with ada@example.com)',
  );
  say(
    '  Orders and their owners: 1001 ada, 1002 grace, 1003 katherine, 1004 hedy, 6666 mallory (email <name>@example.com)',
  );
  say(
    `Task API:   SERVICE_URL=${demo.serviceUrl} SERVICE_TASK_KEY=${DEMO_TASK_KEY} npx service-widget task "list running shoes under 100 EUR"`,
  );

  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    say(`\n${signal}: stopping the demo`);
    demo.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(`demo: could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
