// On Windows a bash call's processes end with hey, however hey ends, as group-guard.ts makes them do
// on POSIX systems: each command's shell is put in one job object of hey's, made with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE. The processes it starts join the job as they start, and when
// hey's process ends, for whatever reason, Windows closes hey's handle to the job, the only one, and
// ends every process still in it: a job left running (`start /b npm run dev`) too, which taskkill /T
// (it follows parent ids) no longer finds once its shell has exited. A program the shell starts
// before it joins (hey puts it there as soon as it is spawned) stays out. Where a call fails (no
// FFI, a job that allows no nesting: Windows 7), commands run unguarded, as before.
/** From <winnt.h>: the limit flag, JobObjectExtendedLimitInformation, and the process rights AssignProcessToJobObject needs. */
const KILL_ON_JOB_CLOSE = 0x2000;
const EXTENDED_LIMIT_INFORMATION = 9;
const PROCESS_SET_QUOTA_AND_TERMINATE = 0x0100 | 0x0001;
/** sizeof(JOBOBJECT_EXTENDED_LIMIT_INFORMATION) on x64, and where BasicLimitInformation.LimitFlags is in it */
const LIMIT_INFO_SIZE = 144;
const LIMIT_FLAGS_AT = 16;

/** Puts a process in hey's job; undefined where there is none. */
export type JoinJob = (pid: number) => void;

let made: Promise<JoinJob | undefined> | undefined;

/**
 * The function that puts a process (by id) in hey's job, made at the first call: undefined off
 * Windows, or when the job could not be made. Never throws.
 */
export function hostJob(platform: string = process.platform): Promise<JoinJob | undefined> {
  if (platform !== "win32") return Promise.resolve(undefined);
  made ??= makeJob().catch(() => undefined);
  return made;
}

async function makeJob(): Promise<JoinJob> {
  const { dlopen, FFIType } = await import("bun:ffi");
  const { symbols: k32 } = dlopen("kernel32.dll", {
    CreateJobObjectW: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.ptr },
    SetInformationJobObject: { args: [FFIType.ptr, FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
    OpenProcess: { args: [FFIType.u32, FFIType.i32, FFIType.u32], returns: FFIType.ptr },
    AssignProcessToJobObject: { args: [FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    CloseHandle: { args: [FFIType.ptr], returns: FFIType.i32 },
  });
  const job = k32.CreateJobObjectW(null, null);
  if (!job) throw new Error("CreateJobObjectW failed");
  const info = new Uint8Array(LIMIT_INFO_SIZE);
  new DataView(info.buffer).setUint32(LIMIT_FLAGS_AT, KILL_ON_JOB_CLOSE, true);
  if (!k32.SetInformationJobObject(job, EXTENDED_LIMIT_INFORMATION, info, LIMIT_INFO_SIZE)) {
    k32.CloseHandle(job);
    throw new Error("SetInformationJobObject failed");
  }
  // hey's handle to the job is never closed: it goes when hey's process does, and the job's processes with it
  return (pid) => {
    const proc = k32.OpenProcess(PROCESS_SET_QUOTA_AND_TERMINATE, 0, pid);
    if (!proc) return; // already gone
    k32.AssignProcessToJobObject(job, proc);
    k32.CloseHandle(proc);
  };
}
