/** The command line of a benchmark: `--<name> <value>` options and bare `--<name>` flags. */

/** The value that follows `--<name>`, or undefined. */
export function benchOption(name: string, argv = process.argv.slice(2)): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

export const benchFlag = (name: string, argv = process.argv.slice(2)) => argv.includes(`--${name}`);
