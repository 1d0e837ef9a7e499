// How a sign-in opens the user's browser (issue 27): `$BROWSER` first (the usual convention: a
// colon-separated list of commands, `%s` standing for the URL, else the URL is the last
// argument), then the system's opener: `open` on macOS, `start` on Windows, `xdg-open` elsewhere.
// The URL is always printed as well (over SSH nothing may open). Pure.

/** The commands to try, in order, each an argv whose program opens `url`. */
export function browserCommands(url: string, env: Record<string, string | undefined>, platform: string): string[][] {
  const out: string[][] = [];
  const cmdUrl = url.replace(/[&^|<>()%!]/g, "^$&"); // cmd.exe reads & | < > as operators: escaped, the URL stays one argument
  for (const entry of (env.BROWSER ?? "").split(platform === "win32" ? ";" : ":")) {
    const command = entry.trim();
    if (command === "") continue;
    // through the shell, so a command with arguments works; the URL is passed as "$1", never spliced in
    const script = command.includes("%s") ? command.replaceAll("%s", '"$1"') : `${command} "$1"`;
    out.push(
      platform === "win32"
        ? ["cmd", "/c", command.includes("%s") ? command.replaceAll("%s", cmdUrl) : `${command} ${cmdUrl}`]
        : ["sh", "-c", script, "sh", url],
    );
  }
  if (platform === "darwin") out.push(["open", url]);
  else if (platform === "win32") out.push(["cmd", "/c", "start", '""', cmdUrl]);
  else out.push(["xdg-open", url]);
  return out;
}
