// Entry point: argv → config → wire → one-shot run (or the REPL). Only the flag parser is loaded
// eagerly, so `hey --version` and `hey --help` start as fast as a hello-world binary.
import { EXIT, HELP, parseCli, UsageError, type CliArgs } from "./cli.ts";
import { drainAll, writer } from "./ui/term.ts";
import { versionLine } from "./upgrade/build-info.ts";

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "upgrade") {
    const { upgradeCommand } = await import("./upgrade/command.ts");
    return upgradeCommand(argv.slice(1));
  }
  if (argv[0] === "doctor") {
    const { doctorCommand } = await import("./doctor/command.ts");
    return doctorCommand(argv.slice(1));
  }
  let args: CliArgs;
  try {
    args = parseCli(argv);
  } catch (e) {
    if (e instanceof UsageError) return fail(e.message, EXIT.usage);
    throw e;
  }
  if (args.help) return print(HELP, EXIT.ok);
  if (args.version) return print(versionLine() + "\n", EXIT.ok);
  const { run } = await import("./run.ts");
  return run(args);
}

function print(text: string, code: number): number {
  writer(1).write(text);
  return code;
}

function fail(message: string, code: number): number {
  writer(2).write(`hey: ${message}\n`);
  return code;
}

/** Exits once stdout and stderr have drained, so piped output is never cut short. */
async function exit(code: number): Promise<never> {
  await drainAll();
  process.exit(code);
}

main(process.argv.slice(2)).then(exit, async (e: unknown) => {
  writer(2).write(`hey: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  await exit(EXIT.runtime);
});
