// hey's own CPU per request in a long session (x119 #4): the context passes and the call-id check
// run before every request over the whole history, while the request itself stays bounded. Runs
// the scripted session of test/helpers/long-session.ts (repeats, failures, big outputs, pauses)
// and prints the CPU per request near its start and at ~1,000 messages of history.
// `npx bun scripts/bench-turn-cpu.ts` prints one line.
import { longSession } from "../test/helpers/long-session.ts";

const STEPS = 340; // ~1,000 messages: a step adds an assistant message and one to three results
const WINDOW = 40; // requests measured at each end

const session = longSession(STEPS);
const cpu: number[] = [];
for (;;) {
  const before = process.cpuUsage();
  const sent = await session.next();
  if (!sent) break;
  const used = process.cpuUsage(before);
  cpu.push((used.user + used.system) / 1000);
}
// the median: a garbage collection lands on one request or another, and the machine may be shared
const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[xs.length >> 1]!.toFixed(2);
console.log(
  `per-request CPU of prepare + call ids: ${median(cpu.slice(5, 5 + WINDOW))} ms early, ${median(cpu.slice(-WINDOW))} ms at ${session.messages()} messages (${STEPS} steps)`,
);
