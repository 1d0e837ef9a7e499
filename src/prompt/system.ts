// The system prompt (SPEC §11), rebuilt for every request. Pure: the caller gathers the facts.

export interface PromptFacts {
  core: string;
  cwd: string;
  date: string;
  os: string;
  shell: string;
}

export function buildSystemPrompt(f: PromptFacts): string {
  return `${f.core.trim()}\n\nWorking directory: ${f.cwd}\nDate: ${f.date}\nOS: ${f.os}; shell: ${f.shell}`;
}
