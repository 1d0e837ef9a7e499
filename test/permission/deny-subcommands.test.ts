// A deny entry naming a subcommand (`git push *`, `npm publish *`, `kubectl delete *`) refuses it
// whatever options come before it: git's own options as git reads them (and an alias, which could
// be any subcommand), other programs' options as any word starting with `-` or `+`, with or
// without a value. What only looks like the subcommand stays allowed. Allow lists are not widened:
// `bash: git status` does not allow `git -C sub status`.
import { expect, test } from "bun:test";
import { compileRules, decide } from "../../src/permission/rules.ts";

type Row = [entry: string, command: string, names: string];

const rows: Row[] = [
  // git: the README's example
  ["git push *", "git push", "matches deny entry"],
  ["git push *", "git -C . push", "matches deny entry"],
  ["git push *", "git -C sub push origin main", "matches deny entry"],
  ["git push *", "git --no-pager push", "matches deny entry"],
  ["git push *", "git -P push", "matches deny entry"],
  ["git push *", "git -c core.pager=cat push origin main", "matches deny entry"],
  ["git push *", "git --git-dir=.git push", "matches deny entry"],
  ["git push *", "git --git-dir .git --work-tree . push", "matches deny entry"],
  ["git push *", "git --namespace=x push", "matches deny entry"],
  ["git push *", "git --exec-path=/usr/lib/git-core push", "matches deny entry"],
  ["git push *", "git --config-env core.pager=HOME push", "matches deny entry"],
  ["git push *", "/usr/bin/git -C . push", "matches deny entry"],
  ["git push *", "env git -C . push", "matches deny entry"],
  ["git push *", "sudo -u root git --no-pager push", "matches deny entry"],
  ["git push *", "timeout 60 git -C repo push", "matches deny entry"],
  ["git push *", "cd repo && git -C .. push --force", "matches deny entry"],
  ["git push *", "git -C $DIR push", "matches deny entry"],
  ["git push *", "git -C. push", "`-C.` is not a git option hey knows"],
  ["git push *", "git --frobnicate push", "`--frobnicate` is not a git option hey knows"],
  ["git push *", "git -c alias.p=push p", "`-c alias.p=push` may define an alias"],
  ["git push *", "git -c Alias.p='!git push' p", "may define an alias"],
  ["git push *", "git --config-env=alias.p=CMD p", "may define an alias"],
  ["git push *", "git -c include.path=/tmp/x.cfg p", "may define an alias"],
  ["git push *", 'git -c "$CFG" status', "may define an alias"],
  ["git push *", "git p origin", "`p` is not a git command hey knows, so it may be an alias"],
  ["git push *", "git config alias.p push && git p", "`p` is not a git command hey knows"],
  ["git push *", "git $SUB", "a word known only at run time"],
  ["git push --force *", "git -C . push --force origin", "matches deny entry"],
  ["git push origin *", "git push --force origin main", "matches deny entry"],
  ["git remote add *", "git remote -v add x https://example.com/x", "matches deny entry"],
  // git: what only looks like the denied subcommand
  ["git push *", "git status", "allowed"],
  ["git push *", "git -C push status", "allowed"],
  ["git push *", "git --git-dir push status", "allowed"],
  ["git push *", "git stash push -m wip", "allowed"],
  ["git push *", "git log --grep push", "allowed"],
  ["git push *", "git commit -m push", "allowed"],
  ["git push *", "git --exec-path push", "allowed"], // prints git's exec path and exits
  ["git push *", "git --help push", "allowed"],
  ["git push *", "git -c core.pager=cat log", "allowed"],
  ["git push *", "git switch main && git restore x", "allowed"],
  ["git push *", "git -c alias.status=push status", "may define an alias"], // git would run status; refusing is the safe side
  ["git lfs push *", "git lfs pull", "allowed"],
  ["git lfs push *", "git lfs push origin", "matches deny entry"],
  // other programs: options before the subcommand, read as possibly taking a value
  ["npm publish *", "npm --prefix pkg publish", "matches deny entry"],
  ["npm publish *", "npm -w pkg publish --tag beta", "matches deny entry"],
  ["npm publish *", "npm --registry=https://r.example publish", "matches deny entry"],
  ["npm publish *", "npm -- publish", "matches deny entry"],
  ["npm publish *", "npm run publish-docs", "allowed"],
  ["npm publish *", "npm --prefix publish test", "matches deny entry"], // `--prefix` could be a flag: refused
  ["npm run deploy *", "npm --silent run deploy", "matches deny entry"],
  ["npm run deploy *", "npm run --silent deploy", "matches deny entry"],
  ["npm run deploy *", "npm run build", "allowed"],
  ["cargo publish *", "cargo +nightly publish", "matches deny entry"],
  ["cargo publish *", "cargo -Z unstable-options publish --dry-run", "matches deny entry"],
  ["cargo publish *", "cargo --config net.offline=true publish", "matches deny entry"],
  ["cargo publish *", "cargo build --release", "allowed"],
  ["docker run *", "docker --context prod run alpine", "matches deny entry"],
  ["docker run *", "docker -H ssh://host run alpine", "matches deny entry"],
  ["docker run *", "docker ps", "allowed"],
  ["kubectl delete *", "kubectl -n prod delete pod x", "matches deny entry"],
  ["kubectl delete *", "kubectl --context=prod --namespace prod delete pod x", "matches deny entry"],
  ["kubectl delete *", "kubectl get pods -n prod", "allowed"],
  ["gh pr merge *", "gh -R owner/repo pr merge 1", "matches deny entry"],
  ["gh pr merge *", "gh pr -R owner/repo merge 1", "matches deny entry"],
  ["gh pr merge *", "gh pr view 1", "allowed"],
  ["terraform destroy *", "terraform -chdir=infra destroy", "matches deny entry"],
  ["curl evil.example", "curl -s evil.example", "matches deny entry"],
  ["rm -rf *", "rm -rf x", "matches deny entry"],
];

test.each(rows)("deny %j: %j", (entry, command, names) => {
  for (const shell of ["sh", "dash", "bash"]) {
    const d = decide("bash", { command }, compileRules({ allow: [], deny: [`bash: ${entry}`] }, shell).rules);
    if (names === "allowed") expect({ shell, d }).toEqual({ shell, d: { allowed: true } });
    else {
      expect({ shell, allowed: d.allowed }).toEqual({ shell, allowed: false });
      if (!d.allowed) expect(d.reason).toContain(names);
    }
  }
});

test("an allow list naming a git subcommand is matched word by word: options before it are not allowed by it", () => {
  const rules = compileRules({ allow: ["bash: git status", "bash: git -C * status"], deny: [] }).rules;
  expect(decide("bash", { command: "git status -s" }, rules)).toEqual({ allowed: true });
  expect(decide("bash", { command: "git -C sub status" }, rules)).toEqual({ allowed: true });
  for (const command of ["git --no-pager status", "git -c alias.status=push status", "git -C sub push", "git -c core.fsmonitor=./x status"])
    expect({ command, allowed: decide("bash", { command }, rules).allowed }).toEqual({ command, allowed: false });
});
