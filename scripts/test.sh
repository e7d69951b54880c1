#!/usr/bin/env bash
# The whole test command (README: `npm test`): type check, lint, build, byte budgets, unit tests, e2e in Chromium.
# Installs Debian Chromium and Caddy with apt when they are missing, so a fresh machine needs nothing done by hand.
set -uo pipefail
cd "$(dirname "$0")/.."

started=$(date +%s)
step() { printf '\n== %s (%s)\n' "$*" "$(elapsed)"; }
elapsed() { local s=$(( $(date +%s) - started )); printf '%d min %02d s' $((s / 60)) $((s % 60)); }
fail() { printf '\ntest: %s failed, after %s\n' "$1" "$(elapsed)"; exit 1; }

if [ ! -x /usr/bin/chromium ]; then
  step "installing Debian Chromium (apt-get)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq chromium fonts-liberation >/dev/null || fail "installing chromium"
fi
if ! command -v caddy >/dev/null; then
  # e2e/proxy-config.e2e.ts runs deploy/Caddyfile, the load balancer of compose.yaml, in Debian's Caddy.
  step "installing Debian Caddy (apt-get)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq caddy >/dev/null || fail "installing caddy"
fi
[ -d node_modules ] || { step "npm install"; npm install --no-audit --no-fund || fail "npm install"; }

# The type check and the lint read the sources only: they run beside the build, their output shown after it.
mkdir -p test-results
step "type check and lint, beside the build"
npm run -s typecheck > test-results/typecheck.log 2>&1 & typecheck=$!
npm run -s lint > test-results/lint.log 2>&1 & lint=$!
npm run -s build; built=$?
wait $typecheck; typecheck_rc=$?
wait $lint; lint_rc=$?
step "type check"; cat test-results/typecheck.log; [ $typecheck_rc -eq 0 ] || fail "type check"
step "lint"; cat test-results/lint.log; [ $lint_rc -eq 0 ] || fail "lint"
step "build"; [ $built -eq 0 ] || fail "build"
# The framework guides' install (the three apps of examples/ and the packed package, scripts/examples-install.mjs) is
# mostly network: it runs beside the steps up to the e2e, and e2e/framework-examples.e2e.ts finds it done.
node scripts/examples-install.mjs > test-results/examples-install.log 2>&1 & examples_install=$!
# Every test that runs service processes runs this build's CLI (src/server/testing/cluster-test-kit.ts), instead of
# bundling one of its own.
export SERVICE_WIDGET_DIST="$PWD/dist"
step "size";        npm run -s size || fail "size budget"
step "eval (ratchet)"; npm run -s eval -- --check || fail "eval ratchet"

step "PostgreSQL for the storage suite"
# shellcheck source=scripts/postgres-for-tests.sh
source scripts/postgres-for-tests.sh
step "unit tests"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/unit.json; unit=$?
step "e2e tests (Chromium)"
# If it failed, the spec installs again and says why.
wait $examples_install; cat test-results/examples-install.log
npx vitest run -c vitest.e2e.config.ts --reporter=default --reporter=json --outputFile.json=test-results/e2e.json; e2e=$?

node -e '
  const fs = require("fs");
  let p = 0, f = 0, s = 0;
  const failures = [];
  for (const file of ["test-results/unit.json", "test-results/e2e.json"]) {
    if (!fs.existsSync(file)) { f++; failures.push(`${file} was not written`); continue; }
    const r = JSON.parse(fs.readFileSync(file, "utf8"));
    p += r.numPassedTests; f += r.numFailedTests; s += r.numPendingTests + (r.numTodoTests || 0);
    for (const suite of r.testResults) {
      const where = suite.name.slice(process.cwd().length + 1);
      // A file that failed to load has no test results, only its message.
      if (suite.status === "failed" && !suite.assertionResults.some((t) => t.status === "failed"))
        failures.push(`${where}: ${(suite.message || "failed").split("\n")[0]}`);
      for (const t of suite.assertionResults)
        if (t.status === "failed")
          failures.push(`${where} > ${t.fullName}\n    ${(t.failureMessages[0] || "").split("\n")[0].slice(0, 300)}`);
    }
  }
  // CI keeps only the end of the output: the failures are repeated here, last, so a red run names them.
  if (failures.length) console.log(`\ntest: what failed\n${failures.map((x) => `  ${x}`).join("\n")}`);
  console.log(`\ntest: ${p} passed, ${f} failed, ${s} skipped`);
'
printf 'test: npm test took %s\n' "$(elapsed)"
[ $unit -eq 0 ] && [ $e2e -eq 0 ]
