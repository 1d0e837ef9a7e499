// A skill's own Python script, run once, leaves its bytecode cache in the skill's folder
// (`__pycache__/fill.cpython-312.pyc` beside the script), which changes the folder's hash (x168 #3). hey still
// counts it: Python runs a .pyc in place of its source whenever the header's time and size match the
// .py, which anyone who can write the file can make them do, so a cache is no proof of what runs.
// What is said instead is that only the cache changed, and how to be rid of it for good.
/** Whether `name` (a path within a skill's folder, `/`-separated) is Python's bytecode cache. */
export const isPythonCache = (name: string) => /(^|\/)__pycache__(\/|$)/.test(name) || /\.py[co]$/.test(name);

/**
 * When every file that changed in the folder of a skill (`dir`, as the user is shown it) (folderChanges: names, a new one marked
 * `(new)`, a removed one `(removed)`) is Python's cache: which, why, and the way out; otherwise undefined.
 */
export function pythonCacheNote(changed: readonly string[] | undefined, dir: string): string | undefined {
  const names = (changed ?? []).map((c) => c.replace(/ \((new|removed)\)$/, ""));
  if (names.length === 0 || !names.every(isPythonCache)) return undefined;
  // what to delete: each __pycache__ folder once, or a .pyc kept beside its source
  const left = (changed ?? []).filter((c) => !c.endsWith(" (removed)")).map((c) => c.replace(/ \(new\)$/, ""));
  const targets = [...new Set(left.map((n) => n.replace(/(^|\/)__pycache__\/.*$/, "$1__pycache__")))].map((n) => `${dir}/${n}`);
  const remove = targets.length ? `; delete it (\`rm -r ${targets.join(" ")}\`) and the skill is as you approved it` : "";
  return (
    `only Python's bytecode cache changed in its folder (${changed!.join(", ")}), written when one of its scripts ran; ` +
    `hey counts it, as Python runs a .pyc in place of its source${remove}; ` +
    "to keep Python from writing it there, set PYTHONDONTWRITEBYTECODE=1, or PYTHONPYCACHEPREFIX to a folder outside the skill, where its scripts run"
  );
}
