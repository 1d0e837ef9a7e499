// Which bash commands may run beside each other in one turn (kernel/tool-calls.ts): those that surely
// change nothing. Everything else — and whatever the reader cannot see through — runs alone, in call order.
import { expect, test } from "bun:test";
import { readsOnly } from "../../src/permission/read-only.ts";

test.each([
  "git status",
  "git status --short && git diff --stat",
  "git log --oneline -5 | head -3",
  "git -C sub show HEAD:README.md",
  "git branch",
  "git branch -a --list",
  "git remote -v",
  "git stash list",
  "ls -la src",
  "cat package.json | jq .scripts",
  "grep -rn TODO src 2>/dev/null | wc -l",
  "cd web && ls",
  "find . -name '*.ts' -not -path './node_modules/*'",
  "find . -name '*.log' -exec grep -l error {} +",
  "rg -n 'fn main' --type rust",
  "echo $HOME; pwd; which node",
  "FOO=1 env | grep PATH",
  "timeout 5 cat big.log",
  "[ -f f.txt ] && echo yes || echo no",
  "wc -l $(git ls-files '*.ts')",
  "rg -z needle logs/",
  "rg --hyperlink-format=default x",
  "rg -- --pre x",
  "file -bi a.png",
  "file --mime-type -m /usr/share/misc/magic a",
  "file -mC a",
  "file -- -C",
])("reads only: %s", (command) => {
  expect(readsOnly(command, "sh")).toBe(true);
});

test.each([
  "git add g1 g2 g3",
  "git commit -m 'add g files'",
  "git status; git add .",
  "git branch feature",
  "git branch -D old",
  "git stash",
  "git checkout main",
  "git config user.name x",
  "git log --output=log.txt",
  "git -c alias.st='!rm -rf x' st",
  "ls > files.txt",
  "echo hi >> notes.md",
  "cat a | tee b",
  "sort -o out.txt in.txt",
  "find . -name '*.tmp' -delete",
  "find . -name '*.tmp' -exec rm {} +",
  "ls | xargs rm",
  "npm install",
  "npm test",
  "make",
  "rm -rf build",
  "mkdir out",
  "sh ./script.sh",
  "sh -c 'touch x'",
  "timeout 5 rm x",
  "$CMD status",
  'eval "$X"',
  "cd web && npm run build",
  "cat <<'EOF' > x\nhi\nEOF",
  "echo 'unbalanced",
  "rg --pre=./run.sh x",
  "rg --pre-glob '*.pdf' x",
  "rg --hostname-bin=./deploy.sh x",
  "rg --hostname-bin make --hyperlink-format=default x",
  "rg $OPTS x",
  "file -C -m mymagic",
  "file -Cm mymagic",
  "file --compile --magic-file mymagic",
  "file --comp -m mymagic",
  "file -p a",
  "less -o copy.txt notes.md",
  "bat --paging=always --pager=./deploy.sh a",
])("may change something: %s", (command) => {
  expect(readsOnly(command, "sh")).toBe(false);
});

test("PowerShell and shells the reader does not model are never read-only", () => {
  expect(readsOnly("Get-ChildItem", "powershell")).toBe(false);
  expect(readsOnly("ls", "zsh")).toBe(false);
  expect(readsOnly("ls", "bash")).toBe(true);
});
