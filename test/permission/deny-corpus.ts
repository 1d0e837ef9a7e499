// The deny corpus (SPEC §8): for a deny entry, commands that must be refused — the refusal names
// why — and look-alikes that must still run ("allowed"), so false refusals show as failures too.
// Checked for /bin/sh, dash and bash by deny-subcommands.test.ts. Sources: the bypasses found of
// `git push *` (options before the subcommand, aliases) and of the option words after it
// (`git push --force *`), and the other names programs give their subcommands.

/** entry (after `bash: `), command, and the phrase its refusal holds, or "allowed" */
export type Row = [entry: string, command: string, names: string];

/** A subcommand named past the options before it; git's aliases; what only looks like the subcommand. */
export const subcommands: Row[] = [
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
  // git's own command programs by their dashed names, from its exec path
  ["git push *", "/usr/lib/git-core/git-push origin main", "matches deny entry"],
  ["git push *", "git-push", "matches deny entry"],
  ["git push --force *", "/usr/libexec/git-core/git-push -f origin main", "matches deny entry"],
  ["git push --force *", "git-push origin main", "allowed"],
  ["git push *", "/usr/lib/git-core/git-pull", "allowed"],
  ["git push *", "git-lfs push", "allowed"], // a program of its own, not git's push
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

/**
 * Option words after the subcommand match wherever the command gives them, in any spelling the
 * program reads as the same option (git's and npm's tables, GNU rm's; clusters and abbreviations
 * for any program); another option is another option; allow patterns are unchanged.
 */
export const options: Row[] = [
  // git push --force: the last session's open case, and git's other spellings of --force
  ["git push --force *", "git push origin --force", "matches deny entry"],
  ["git push --force *", "git push origin main -f", "matches deny entry"],
  ["git push --force *", "git push origin -f main", "matches deny entry"],
  ["git push --force *", "git push -fu origin main", "matches deny entry"],
  ["git push --force *", "git push -vf origin main", "matches deny entry"],
  ["git push --force *", "git push --forc origin main", "matches deny entry"], // ambiguous: git refuses it; refusing is the safe side
  ["git push --force *", "git push --no-force --force origin main", "matches deny entry"],
  ["git push --force *", "git -C . push origin main --force", "matches deny entry"],
  ["git push --force *", "git push origin +main", "matches deny entry"], // `+` forces that ref
  // a `+` glob forces every ref it names, expanded or not
  ["git push --force *", "git push origin +refs/heads/*:refs/heads/*", "matches deny entry"],
  // config given on the command line that makes a plain push force: a `+` refspec, a mirroring remote
  ["git push --force *", "git -c remote.origin.push=+HEAD:main push", "matches deny entry"],
  ["git push --force *", "git -c Remote.Origin.PUSH=+refs/heads/*:refs/heads/* push origin", "matches deny entry"],
  ["git push --force *", "git -C . -c remote.up.stream.push=+main push up.stream", "matches deny entry"],
  ["git push --force *", "git -c remote.origin.mirror=true push", "matches deny entry"],
  ["git push --force *", "git -c remote.origin.mirror push", "matches deny entry"],
  ["git push -f *", "git -c remote.origin.mirror=yes push", "matches deny entry"],
  ["git push --force *", "git --config-env=remote.origin.push=REFSPEC push", "known only at run time"],
  ["git push --force *", "git --config-env remote.origin.mirror=M push", "known only at run time"],
  ["git push --force *", "git -c remote.origin.push=HEAD:main push", "allowed"],
  ["git push --force *", "git -c remote.origin.mirror=false push", "allowed"],
  ["git push --force *", "git -c push.default=matching push", "allowed"], // pushes matching branches, never forcing
  ["git push --force *", "git -c remote.origin.push=+HEAD:main fetch", "allowed"],
  ["git push --force *", "git push origin $FLAG", "known only at run time and could match"],
  ["git push --force *", "git push --force-with-lease origin main", "allowed"], // another option: deny it by name (or `--force*`)
  ["git push --force *", "git push --force-w origin main", "allowed"],
  ["git push --force *", "git push --force-if-includes origin main", "allowed"],
  ["git push --force *", "git push --no-force origin main", "allowed"],
  ["git push --force *", "git push -u origin main", "allowed"],
  ["git push --force *", "git push origin main", "allowed"],
  ["git push --force *", "git push origin -- --force", "allowed"], // after `--`, a refspec
  ["git push --force *", "git push --mirror origin", "matches deny entry"], // force-updates the remote's refs, as --force does
  ["git push --force *", "git push --mir origin", "matches deny entry"],
  ["git push --force *", "git push --all origin", "allowed"],
  ["git push --force* *", "git push --force-with-lease origin main", "matches deny entry"],
  ["git push --force* *", "git push -f origin main", "matches deny entry"],
  ["git push -f *", "git push --force origin main", "matches deny entry"],
  ["git push origin --force *", "git push --force origin main", "matches deny entry"],
  ["git push origin --force *", "git push upstream --force", "allowed"],
  ["git reset --hard *", "git reset HEAD~1 --hard", "matches deny entry"],
  ["git reset --hard *", "git reset --har HEAD~1", "matches deny entry"],
  ["git reset --hard *", "git reset -q --hard", "matches deny entry"],
  ["git reset --hard *", "git reset --soft HEAD~1", "allowed"],
  ["git reset --hard *", "git reset --keep HEAD~1", "allowed"],
  ["git clean -fd *", "git clean -df", "matches deny entry"],
  ["git clean -fd *", "git clean -f -d", "matches deny entry"],
  ["git clean -fd *", "git clean -d --force", "matches deny entry"],
  ["git clean -fd *", "git clean -xdf", "matches deny entry"],
  ["git clean -fd *", "git clean -f", "allowed"],
  ["git clean -fd *", "git clean -nd", "allowed"],
  ["git branch -D *", "git branch --delete --force x", "matches deny entry"], // -D is --delete --force (git-branch(1))
  ["git branch -D *", "git branch -d -f x", "matches deny entry"],
  ["git branch -D *", "git branch -d x", "allowed"],
  ["git branch --delete --force *", "git branch -D x", "matches deny entry"],
  ["git worktree remove --force *", "git worktree remove -f x", "matches deny entry"],
  ["git worktree remove --force *", "git worktree remove x", "allowed"],
  ["git commit --no-verify *", "git commit -nm x", "matches deny entry"],
  ["git commit --no-verify *", "git commit -m x --no-verif", "matches deny entry"],
  ["git commit --no-verify *", "git commit -mnothing", "allowed"], // `-m` takes the rest of the word
  ["git commit --amend *", "git commit -m x --amend", "matches deny entry"],
  ["git commit --amend *", "git commit --all -m x", "allowed"],
  ["git -C repo push *", "git -C repo push origin", "matches deny entry"], // options before git's subcommand: as written
  // GNU rm, from its table; programs hey has none for read clusters and abbreviations
  ["rm -rf *", "rm -fr x", "matches deny entry"],
  ["rm -rf *", "rm -r -f x", "matches deny entry"],
  ["rm -rf *", "rm x -rf", "matches deny entry"],
  ["rm -rf *", "rm -Rfv x", "matches deny entry"],
  ["rm -rf *", "rm --recursive --force x", "matches deny entry"],
  ["rm -rf *", "rm --rec --for x", "matches deny entry"],
  ["rm -rf *", "sudo rm -f -r x", "matches deny entry"],
  ["rm -rf *", "rm -f $TMPFILE", "known only at run time and could match"], // `$TMPFILE` could be `-r`
  ["rm -rf *", "rm -f -- $TMPFILE", "allowed"],
  ["rm -rf *", "rm -r x", "allowed"],
  ["rm -rf *", "rm -f x", "allowed"],
  ["rm -rf /", "rm / -rf", "matches deny entry"],
  ["rm -rf /", "rm -rf /tmp/x", "allowed"],
  ["curl -X POST *", "curl -s -X POST https://example.com", "matches deny entry"],
  ["curl -X POST *", "curl https://example.com -XPOST", "matches deny entry"],
  ["curl -X POST *", "curl https://example.com -X GET", "allowed"],
  ["kubectl delete -n prod *", "kubectl delete pod x -n prod", "matches deny entry"],
  ["kubectl delete -n prod *", "kubectl delete pod x -n dev", "allowed"],
  ["docker run --privileged *", "docker run -it --privileged alpine", "matches deny entry"],
  ["docker run --privileged *", "docker run -it alpine", "allowed"],
  ["gh pr merge --admin *", "gh pr merge 1 --squash --admin", "matches deny entry"],
  ["gh pr merge --admin *", "gh pr merge 1 --squash", "allowed"],
  ["terraform destroy -auto-approve *", "terraform destroy -var x=1 -auto-approve", "matches deny entry"],
  ["terraform destroy -auto-approve *", "terraform destroy -var x=1", "allowed"],
  // npm, from its shorthands; npm reads its options anywhere
  ["npm install -g *", "npm install --global x", "matches deny entry"],
  // nopt: a negated flag given `false` sets the flag (npm's own nopt: `--no-global=false` is global: true)
  ["npm install -g *", "npm install --no-global=false x", "matches deny entry"],
  ["npm install -g *", "npm i x --no-global false", "matches deny entry"],
  ["npm install -g *", "npm i --no-global x", "allowed"],
  ["npm install -g *", "npm i --no-global=true x", "allowed"],
  ["npm install -g *", "npm install x -g", "matches deny entry"],
  ["npm install -g *", "npm -g install x", "matches deny entry"],
  ["npm install -g *", "npm install -global x", "matches deny entry"],
  ["npm install -g *", "npm install --no-global x", "allowed"],
  ["npm install -g *", "npm install --location=global x", "matches deny entry"], // npm's other spelling of -g
  // an entry that spells out `--` after its options
  ["rm -rf -- *", "rm -rf -- /", "matches deny entry"],
  ["rm -rf -- *", "rm -rf /", "matches deny entry"],
  ["rm -rf -- *", "rm -r x -f -- y", "matches deny entry"],
  ["rm -r -- *", "rm -r -- x", "matches deny entry"],
  ["rm -f -- *", "rm -f -- x", "matches deny entry"],
  ["rm -rf -- *", "rm -f -- x", "allowed"],
  ["git checkout -f -- *", "git checkout -f -- x", "matches deny entry"],
  ["git checkout -f -- x", "git checkout -f -- x", "matches deny entry"],
  ["git checkout -f -- x", "git checkout -f -- y", "allowed"],
  ["git branch -D -- *", "git branch -D -- x", "matches deny entry"],
  ["npm install -g *", "npm i x --location global", "matches deny entry"],
  ["npm install -g *", "npm install --location=project x", "allowed"],
  ["npm install -g *", "npm install x", "allowed"],
  ["npm publish --access public *", "npm publish --access=public", "matches deny entry"],
  ["npm publish --access public *", "npm publish --tag beta --access public", "matches deny entry"],
  ["npm publish --access public *", "npm publish --access restricted", "allowed"],
  ["npm audit fix --force *", "npm audit fix -f", "matches deny entry"],
  ["npm audit fix --force *", "npm audit --force fix", "matches deny entry"],
  ["npm audit fix --force *", "npm audit fix", "allowed"],
];

/**
 * Other names of a subcommand: npm's aliases and abbreviations (its own table), gh's; and, while an
 * entry names a subcommand of cargo or gh, a word that is not one of that program's own commands
 * (a user's alias, an extension, a `cargo-NAME` program), as git's already were.
 */
export const aliases: Row[] = [
  ["npm publish *", "npm pub", "matches deny entry"],
  ["npm publish *", "npm publ --tag beta", "matches deny entry"],
  ["npm publish *", "npm pu", "matches deny entry"],
  ["npm publish *", "npm --prefix pkg pub", "matches deny entry"],
  ["npm publish *", "npm pack", "allowed"],
  ["npm publish *", "npm run publish", "allowed"],
  ["npm uninstall *", "npm rm x", "matches deny entry"],
  ["npm uninstall *", "npm un x", "matches deny entry"],
  ["npm uninstall *", "npm unpublish x", "allowed"],
  ["npm unpublish *", "npm unp x", "matches deny entry"],
  ["npm unpublish *", "npm un x", "allowed"], // npm's alias of uninstall
  ["npm install *", "npm isntall x", "matches deny entry"],
  ["npm install -g *", "npm i x --global", "matches deny entry"],
  ["npm install *", "npm add x", "matches deny entry"],
  ["npm install *", "npm it", "allowed"], // install-test
  ["npm install *", "npm ci", "allowed"],
  ["npm run deploy *", "npm run-script deploy", "matches deny entry"],
  ["npm run deploy *", "npm rum deploy", "matches deny entry"],
  ["npm run deploy *", "npm runScript deploy", "matches deny entry"],
  ["npm run deploy *", "npm r deploy", "allowed"], // uninstall
  ["npm rm *", "npm uninstall x", "matches deny entry"],
  ["npm dist-tag rm *", "npm dist-tag del x beta", "matches deny entry"],
  ["npm dist-tag rm *", "npm distTag remove x beta", "matches deny entry"],
  ["npm dist-tag rm *", "npm dist-tag ls x", "allowed"],
  ["npm cache clean *", "npm cache clear --force", "matches deny entry"],
  ["npm cache clean *", "npm cache ls", "allowed"],
  ["cargo publish *", "cargo p", "`p` is not a cargo command hey knows, so it may be an alias"],
  ["cargo publish *", "cargo +nightly --color always p", "`p` is not a cargo command hey knows"],
  ["cargo publish *", "cargo --frobnicate p", "`p` is not a cargo command hey knows"], // an option hey does not know: `p` may be the command
  ["cargo publish *", "cargo b", "an [alias] in a cargo config file replaces cargo's own `b`"],
  ["cargo publish *", "cargo t", "replaces cargo's own `t`"],
  ["cargo publish *", "cargo clippy", "`clippy` is not a cargo command hey knows"],
  ["cargo publish *", "cargo fmt --check", "`fmt` is not a cargo command hey knows"],
  ["cargo publish *", "cargo build --release", "allowed"],
  ["cargo publish *", "cargo --color always test", "allowed"],
  ["cargo publish *", "cargo -q check", "allowed"],
  ["cargo publish *", "cargo help publish", "allowed"],
  ["cargo publish *", "cargo --version", "allowed"],
  ["gh pr merge *", "gh pm 1", "`pm` is not a gh command hey knows, so it may be an alias"],
  ["gh pr merge *", "gh pr mm 1", "`mm` is not a gh command hey knows"], // gh alias set "pr mm" "pr merge"
  ["gh pr merge *", "gh -R o/r pm 1", "`pm` is not a gh command hey knows"],
  ["gh pr merge *", "gh co 1", "`co` is not a gh command hey knows"], // gh's default alias (pr checkout), a user's to change
  ["gh pr merge *", "gh copilot suggest x", "`copilot` is not a gh command hey knows"], // an extension
  ["gh pr merge *", "gh pr view 1", "allowed"],
  ["gh pr merge *", "gh pr checkout 1", "allowed"],
  ["gh pr merge *", "gh -R o/r pr list", "allowed"],
  ["gh pr merge *", "gh issue list", "allowed"],
  ["gh pr merge *", "gh rs view", "allowed"], // ruleset
  ["gh pr list *", "gh pr ls", "matches deny entry"],
  ["gh secret delete *", "gh secret remove X", "matches deny entry"],
  ["gh secret delete *", "gh secret list", "allowed"],
  ["gh ruleset view *", "gh rs view 1", "matches deny entry"],
];

/**
 * A deny entry's other words name files: every spelling of the same path matches (`..` taken
 * lexically). Case is the platform's (deny-case.test.ts); these hold on any file system.
 */
export const paths: Row[] = [
  ["rm -rf build", "rm -rf ./build", "matches deny entry"],
  ["rm -rf build", "rm -rf build/", "matches deny entry"],
  ["rm -rf build", "rm -rf build/.", "matches deny entry"],
  ["rm -rf build", "rm -rf .//build//", "matches deny entry"],
  ["rm -rf build", "rm -rf src/../build", "matches deny entry"],
  ["rm -rf build", "rm -fr ./././build", "matches deny entry"],
  ["rm -rf build/out", "rm -rf build//out/", "matches deny entry"],
  ["rm -rf /tmp/x", "rm -rf //tmp/./x/", "matches deny entry"],
  ["rm -rf build*", "rm -rf ./build-old", "matches deny entry"],
  ["rm -rf .", "rm -rf ./", "matches deny entry"],
  ["rm -rf build", "rm -rf ../build", "allowed"],
  ["rm -rf build", "rm -rf build/x", "allowed"],
  ["rm -rf build", "rm -rf ./builds", "allowed"],
];
