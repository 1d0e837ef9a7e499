import { places, type Places } from "../../src/fs/places.ts";

/** What loadConfig is given for `env` and a project at `cwd`: the environment, and the places it implies. */
export function configInputs(env: Record<string, string | undefined>, cwd: string): { env: Record<string, string | undefined>; here: Places } {
  return { env, here: places(env, env.HOME ?? "/nonexistent-home", cwd, process.platform) };
}
