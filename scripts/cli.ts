/** Runs a command-line script's main: its number is the exit code; an error is printed in words. */
export function runCli(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
