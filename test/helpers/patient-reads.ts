// Preloaded by bun test (bunfig.toml): the permission checks' disk reads (fs/bounded-reads.ts) wait
// up to a minute in the tests that are not about their deadline. On a loaded two-core CI machine a
// read of a test's own temp dir once took over 4 s (two deadlines), and a check that should have
// passed refused "cannot verify". Tests about the deadline set their own (setWorkerSource).
import { setStandardDeadline } from "../../src/fs/bounded-reads.ts";

setStandardDeadline(60_000);
