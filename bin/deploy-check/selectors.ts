// bin/deploy-check -> the README's deploy commands select stacks that exist: each selector of its
// `npx cdk deploy|diff|destroy` commands is given to the CDK CLI's own `cdk ls` against a synthesised
// assembly, so it is matched exactly as the CLI will match it.
import { fromRoot } from '../../lib/paths';
import { runCollected } from '../run-collected';

/** The stack selectors of the README's `cdk deploy|diff|destroy` commands (not `--app cdk.out` ones' options). */
export const readmeSelectors = (readme: string): string[] => {
  const selectors = new Set<string>();
  for (const [command] of readme.matchAll(/npx cdk (?:deploy|diff|destroy)\b[^`\n]*/g)) {
    const words = command.split(/\s+/).slice(3);
    for (let index = 0; index < words.length; index += 1) {
      const word = words[index] as string;
      if (word === '#') break;
      if (word.startsWith('-')) {
        if (['--app', '--outputs-file', '-c', '--context'].includes(word)) index += 1;
        continue;
      }
      selectors.add(word.replace(/^'(.*)'$/, '$1'));
    }
  }
  return [...selectors];
};

/** What `cdk ls <selector>` lists from the assembly in `assemblyDirectory`, or why it failed. */
const listed = async (
  assemblyDirectory: string,
  selector: string,
): Promise<{ stacks: string; error: string }> => {
  const { code, stdout, stderr } = await runCollected(
    fromRoot('node_modules/.bin/cdk'),
    ['ls', '--app', assemblyDirectory, selector],
    { cwd: fromRoot('.') },
  );
  return { stacks: code === 0 ? stdout.trim() : '', error: stderr.trim().split('\n').at(-1) ?? '' };
};

/** A line for each selector that matches no stack of the assembly (the `cdk ls` run at once). */
export const unmatchedSelectors = async (
  assemblyDirectory: string,
  selectors: readonly string[],
): Promise<string[]> => {
  const results = await Promise.all(selectors.map((selector) => listed(assemblyDirectory, selector)));
  return selectors.flatMap((selector, index) => {
    const result = results[index];
    return result && result.stacks === ''
      ? [`README selector '${selector}' matches no stack (cdk ls: ${result.error})`]
      : [];
  });
};
