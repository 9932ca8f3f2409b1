// unit -> the rule of the developers' guide that tests wait for states, never for times, holds by itself:
// every test file is read as a syntax tree and refused if it sleeps (`waitForTimeout`, `setTimeout`,
// `setInterval`, `timers/promises`) or compares the clock (`Date.now()` or `performance.now()` beside
// `<`, `>`, `-` or in `expect`). A wait for a state goes through test/support/eventually.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { fromRoot } from '../../lib/paths';

type Rule = 'waitForTimeout' | 'timer' | 'clock comparison';

interface Finding {
  rule: Rule;
  line: number;
  text: string;
}

/**
 * The files allowed a rule, each with why: the harness's own bounded waits (each polls for a state until
 * a deadline, then fails saying what it last saw), and clocks read only for figures that are printed.
 */
const ALLOWED: Record<string, { rules: Rule[]; why: string }> = {
  'test/support/eventually.ts': {
    rules: ['timer', 'clock comparison'],
    why: 'the one poller for a state: probes every 100 ms until its deadline',
  },
  'test/support/webhook-receiver.ts': {
    rules: ['timer', 'clock comparison'],
    why: 'waitFor: polls the requests received until its deadline, then lists them all',
  },
  'test/support/local-stack.ts': {
    rules: ['timer'],
    why: 'fails the start of a local stack that has not said it is ready within 90 s',
  },
  'test/infra/synth.ts': {
    rules: ['clock comparison'],
    why: 'measures how long synthesis took, which app.test.ts prints; nothing is asserted on it',
  },
  'test/infra/bundle-cache.ts': {
    rules: ['clock comparison'],
    why: "a worker waits for another's bundling of the same function (or synthesis of the same app, test/infra/assembly-cache.ts), polling its lock every 100 ms (Atomics.wait: the bundling is synchronous) until a deadline, then fails naming the holder; and prunes caches untouched for 6 hours",
  },
  'test/support/fuzz.ts': {
    rules: ['clock comparison'],
    why: "measures the fuzzer's run for the figures line it prints; nothing is asserted on it",
  },
  'test/support/fuzz-mcp.ts': {
    rules: ['clock comparison'],
    why: "measures the MCP fuzzer's run for the figures line it prints; nothing is asserted on it",
  },
  'test/support/api-client.ts': {
    rules: ['clock comparison'],
    why: 'sendUntilLimited: how long the sending took, which only widens what a rate may admit (never a speed check)',
  },
  'test/api/webhooks-crash.test.ts': {
    rules: ['timer'],
    why: 'a receiver that answers each request 20 ms late, so that attempts are under way at the kill; no test waits on it',
  },
};

const COMPARISONS = new Set([
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
  ts.SyntaxKind.MinusToken,
]);

/** `Date.now()` or `performance.now()`. */
const isClockRead = (node: ts.Node): node is ts.CallExpression =>
  ts.isCallExpression(node) &&
  ts.isPropertyAccessExpression(node.expression) &&
  node.expression.name.text === 'now' &&
  ts.isIdentifier(node.expression.expression) &&
  ['Date', 'performance'].includes(node.expression.expression.text);

/** The expression a node's value goes into, through parentheses. */
const consumer = (node: ts.Node): ts.Node => {
  let parent = node.parent;
  while (ts.isParenthesizedExpression(parent)) parent = parent.parent;
  return parent;
};

/** What a file does that the rule refuses. */
const findings = (fileName: string, source: string): Finding[] => {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: Finding[] = [];
  const note = (rule: Rule, node: ts.Node) =>
    found.push({
      rule,
      line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1,
      text: node.getText(file).split('\n')[0] as string,
    });
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === 'waitForTimeout') note('waitForTimeout', node.parent);
    else if (ts.isIdentifier(node) && ['setTimeout', 'setInterval'].includes(node.text))
      note('timer', node.parent);
    else if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      /^(node:)?timers\/promises$/.test(node.moduleSpecifier.text)
    ) {
      // Its setImmediate waits for a turn of the event loop, not for a time.
      const bindings = node.importClause?.namedBindings;
      const names = bindings && ts.isNamedImports(bindings) ? bindings.elements : [];
      if (!bindings || names.some((name) => (name.propertyName ?? name.name).text !== 'setImmediate'))
        note('timer', node);
      return;
    } else if (isClockRead(node)) {
      const into = consumer(node);
      if (
        (ts.isBinaryExpression(into) && COMPARISONS.has(into.operatorToken.kind)) ||
        (ts.isCallExpression(into) && ts.isIdentifier(into.expression) && into.expression.text === 'expect')
      )
        note('clock comparison', into);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
};

/** Every TypeScript file under `directory`. */
const typeScriptFiles = (directory: string): string[] =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });

describe('the rule itself', () => {
  test('finds every form of sleep and clock comparison', () => {
    const source = [
      "import { setTimeout as sleep } from 'node:timers/promises';",
      'await page.waitForTimeout(300);',
      'await new Promise((resolve) => setTimeout(resolve, 50));',
      'const ticker = setInterval(probe, 10);',
      'expect(Date.now() - started).toBeGreaterThanOrEqual(400);',
      'for (const until = Date.now() + 1000; Date.now() < until; ) probe();',
      'expect(performance.now()).toBeLessThan(deadline);',
    ].join('\n');
    expect(findings('example.ts', source).map(({ rule, line }) => [line, rule])).toEqual([
      [1, 'timer'],
      [2, 'waitForTimeout'],
      [3, 'timer'],
      [4, 'timer'],
      [5, 'clock comparison'],
      [6, 'clock comparison'],
      [7, 'clock comparison'],
    ]);
  });

  test('lets a test read the clock to build an input, and wait a turn of the event loop', () => {
    const source = [
      "import { setImmediate as nextTurn } from 'node:timers/promises';",
      'const request = { deadline: Date.now() + 60_000, at: Math.floor(Date.now() / 1000) - 60 };',
      'await nextTurn();',
    ].join('\n');
    expect(findings('example.ts', source)).toEqual([]);
  });
});

test('no test file sleeps or compares the clock, but for the allowed bounded waits of the harness', () => {
  const root = fromRoot('.');
  const refused = typeScriptFiles(fromRoot('test')).flatMap((path) => {
    const name = relative(root, path);
    const allowed = ALLOWED[name]?.rules ?? [];
    return findings(name, readFileSync(path, 'utf8'))
      .filter(({ rule }) => !allowed.includes(rule))
      .map(({ rule, line, text }) => `${name}:${line} ${rule}: ${text}`);
  });
  expect(refused).toEqual([]);
  // An allowance no longer used is removed, so that the list stays short and true.
  const unused = Object.entries(ALLOWED).flatMap(([name, { rules }]) => {
    const used = new Set(findings(name, readFileSync(fromRoot(name), 'utf8')).map(({ rule }) => rule));
    return rules.filter((rule) => !used.has(rule)).map((rule) => `${name}: ${rule}`);
  });
  expect(unused).toEqual([]);
});
