// docker's commands by their other names, and what removes what they remove, for the deny entries
// that name one (equivalents.ts). Pure.
import type { Word } from "./shell-model.ts";

const raw = (words: Word[]) => words.map((w) => w.raw).join(" ");

/**
 * docker's commands by all their names (`docker X --help`: "Aliases: docker container rm, docker
 * container remove, docker rm"); each group runs the same command.
 */
const DOCKER_NAMES = [
  "run|container run",
  "exec|container exec",
  "rm|container rm|container remove",
  "rmi|image rm|image remove",
  "ps|container ls|container list|container ps",
  "images|image ls|image list",
  "build|image build|builder build|buildx build",
  ..."attach commit cp create diff export kill logs pause port rename restart start stats stop top unpause update wait"
    .split(" ")
    .map((c) => `${c}|container ${c}`),
  ..."history import load pull push save tag".split(" ").map((c) => `${c}|image ${c}`),
  "volume rm|volume remove",
].map((g) => g.split("|"));
/**
 * What removes what a docker command removes: `container prune` "Remove all stopped containers",
 * `system prune` "Remove unused data" (containers, images), `volume prune` "Remove unused local
 * volumes", and `system prune --volumes` "Prune anonymous volumes".
 */
const DOCKER_PRUNES: Record<string, string[]> = {
  rm: ["container prune", "system prune"],
  rmi: ["image prune", "system prune"],
  "volume rm": ["volume prune", "system prune --volumes"],
};

/** `docker SUBCOMMAND [ARGS]`: the same command by its other names, and the prunes that remove what it removes. */
export function containers(rest: Word[]): [string, string][] {
  const words = rest.map((w) => w.text);
  for (const take of [2, 1]) {
    const name = words.slice(0, take).join(" ");
    const group = DOCKER_NAMES.find((g) => g.includes(name));
    if (!group || rest.slice(0, take).some((w) => w.unknown || w.glob)) continue;
    const args = raw(rest.slice(take)) || "*";
    const others: [string, string][] = group.filter((n) => n !== name).map((n) => [`docker ${n} ${args}`, `docker ${n} is docker ${name}`]);
    const prunes = DOCKER_PRUNES[group[0]!] ?? [];
    return others.concat(prunes.map((n): [string, string] => [`docker ${n} *`, `docker ${n.replace(/ --.*/, "")} removes what docker ${group[0]} does`]));
  }
  return [];
}
