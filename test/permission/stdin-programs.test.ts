// x100 #2: an exact entry (`bash: sqlite3 db $`) allowed the program to be given commands on stdin
// when it was no Python-like interpreter: julia, irb, sqlite3's `.shell`, psql's `\!`, gdb's
// `shell`, ed's `!`, and `awk -f -` or `make -f -` reading their script from the pipe.
import { expect, test } from "bun:test";
import { permissionCheck } from "../../src/permission-check.ts";

const check = (allow: string[], command: string) =>
  permissionCheck({ allow, deny: [], narrow: [], file: "/h/.config/hey/config.toml" }, "sh", { cwd: "/p", home: "/h", controls: [] })("bash", {
    command,
  });

test.each([
  ["julia", "echo 'run(`touch x`)' | julia"],
  ["irb", "irb <<< 'system(\"id\")'"],
  ["Rscript -", "echo 'system(\"touch x\")' | Rscript -"],
  ["R --no-save", "R --no-save <<< 'system(\"id\")'"],
  ["sqlite3 db", "sqlite3 db <<< '.shell id'"],
  ["psql", "echo '\\! touch x' | psql"],
  ["mysql", "mysql <<< 'system touch x'"],
  ["gdb -batch", "echo 'shell touch x' | gdb -batch"],
  ["ed file", "echo '!touch x' | ed file"],
  ["at now", "echo 'touch x' | at now"],
  ["parallel", "echo 'touch x' | parallel"],
  ["awk -f -", "echo 'BEGIN{system(\"touch x\")}' | awk -f -"],
  ["sed -f /dev/stdin f", "echo '1e touch x' | sed -f /dev/stdin f"],
  ["make -f -", "printf 'all:\\n\\ttouch x\\n' | make -f -"],
  ["vim -es f", "echo '!touch x' | vim -es f"],
  ["vim -Es", "vim -Es <<< '!touch x'"], // x101 #3: improved Ex mode
  ["vim -E -s", "echo '!touch x' | vim -E -s"],
  ["view -es f", "echo '!touch x' | view -es f"],
  ["m4", "m4 <<< 'syscmd(touch x)'"],
  ["gnuplot", "gnuplot <<< 'system \"touch x\"'"],
  ["awk -f /proc/self/fd/0", "awk -f /proc/self/fd/0 <<< 'BEGIN{system(\"touch x\")}'"],
  ["ssh host", "ssh host <<< 'rm -rf ~'"], // a login shell on the host reads stdin
  ["ssh -p 22 host", "echo 'rm -rf ~' | ssh -p 22 host"],
  ["ssh host sh", "ssh host sh <<< 'rm -rf ~'"],
])("`bash: %s $` does not allow %j", (entry, command) => {
  expect(check([`bash: ${entry} $`, "bash: echo *", "bash: printf *"], command)).toMatch(/matches no allow entry|cannot verify/);
});

test.each([
  ["awk '{print $1}'", "ps aux | awk '{print $1}'"],
  ["awk -f prog.awk", "ps aux | awk -f prog.awk"],
  ["make -f Makefile", "echo x | make -f Makefile"],
  ["sort", "echo x | sort"],
  ["sqlite3 db .tables", "sqlite3 db .tables"],
  ["ssh host cat", "echo x | ssh host cat"],
  ["vim -R f", "echo x | vim -R f"],
])("a program whose stdin is data still matches `bash: %s $`: %j", (entry, command) => {
  expect(check([`bash: ${entry} $`, "bash: ps *", "bash: echo *"], command)).toBeUndefined();
});
