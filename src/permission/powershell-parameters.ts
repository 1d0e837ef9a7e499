// PowerShell's own names for a cmdlet's parameters (SPEC §8): a parameter's aliases, the common
// parameters' aliases, and the positions a parameter takes its value at, for the cmdlets of
// powershell.ts's alias table that a deny entry is likely to name. From Microsoft's cmdlet
// reference (learn.microsoft.com/powershell/module/microsoft.powershell.management/<cmdlet>,
// each parameter's "Aliases:" and "Position:"; Windows PowerShell 5.1 and PowerShell 7.4) and
// about_CommonParameters (learn.microsoft.com/powershell/module/microsoft.powershell.core/about/
// about_commonparameters: "Their aliases are listed in parentheses", WhatIf and Confirm with them).
// A name missing here only means a deny entry does not see that spelling. Pure.
import { cmdletOf } from "./powershell.ts";

/** Common parameters (every cmdlet and advanced function) and the risk mitigation ones, with their aliases. */
const COMMON =
  "debug:db erroraction:ea errorvariable:ev informationaction:infa informationvariable:iv outvariable:ov outbuffer:ob pipelinevariable:pv progressaction:proga verbose:vb warningaction:wa warningvariable:wv whatif:wi confirm:cf";

// `name:alias,alias` (an alias list may be empty) `@position` — parameters by cmdlet
const LITERAL = "literalpath:pspath,lp";
const TABLE: Record<string, string> = {
  "remove-item": `path@0 ${LITERAL}@0`,
  "copy-item": `path@0 ${LITERAL} destination@1`,
  "move-item": `path@0 ${LITERAL} destination@1`,
  "rename-item": `path@0 ${LITERAL} newname@1`,
  "set-content": `path@0 ${LITERAL} value@1`,
  "add-content": `path@0 ${LITERAL} value@1`,
  "clear-content": `path@0 ${LITERAL}`,
  "clear-item": `path@0 ${LITERAL}`,
  "get-content": `path@0 ${LITERAL} totalcount:first,head tail:last`,
  "get-childitem": `path@0 ${LITERAL} filter@1 recurse:s,r directory:ad,d file:af hidden:ah,h readonly:ar system:as`,
  "set-location": `path@0 ${LITERAL}`,
  "push-location": `path@0 ${LITERAL}`,
  "remove-itemproperty": `path@0 ${LITERAL} name:psproperty@1`,
  "set-itemproperty": `path@0 ${LITERAL} name:psproperty@1 value@2`,
  "tee-object": `filepath:path@0 ${LITERAL}`,
  "select-string": `pattern@0 path@1 ${LITERAL}`,
  "stop-process": "id@0 name:processname",
  "get-process": "name:processname@0 id:pid",
  "stop-service": "name:servicename@0",
  "start-service": "name:servicename@0",
  "invoke-webrequest": "uri@0",
  "set-executionpolicy": "executionpolicy@0 scope@1",
  "start-sleep": "seconds@0 milliseconds:ms",
};

/** A parameter: its name, its aliases, the position it takes a value at (if any). */
interface Parameter {
  name: string;
  aliases: string[];
  position?: number;
}

function read(spec: string): Parameter[] {
  return spec.split(" ").map((p) => {
    const m = /^([a-z]+)(?::([a-z,]*))?(?:@(\d+))?$/.exec(p)!;
    return { name: m[1]!, aliases: m[2] ? m[2].split(",") : [], ...(m[3] ? { position: Number(m[3]) } : {}) };
  });
}

const common = read(COMMON);
const byCmdlet = new Map(Object.entries(TABLE).map(([cmdlet, spec]) => [cmdlet, [...read(spec), ...common]]));

/** What a parameter word of a deny entry names: every name PowerShell binds to the same parameter, and the positions it takes a value at. */
export interface Named {
  /** lowercase: the entry's word, and each parameter it may abbreviate with all its aliases */
  names: string[];
  positions: number[];
}

/**
 * The parameters a deny entry's word `-word` (lowercase, without the dash) may name on `command`
 * (a cmdlet or one of its aliases; for any other command only the common parameters are known):
 * each one whose name or alias `word` begins, as PowerShell matches a parameter by a prefix of
 * either (MergedCommandParameterMetadata.GetMatchingParameter).
 */
export function parameterNames(command: string, word: string): Named {
  const params = byCmdlet.get(cmdletOf(command) ?? command) ?? common;
  const hit = params.filter((p) => [p.name, ...p.aliases].some((n) => n.startsWith(word)));
  return {
    names: [...new Set([word, ...hit.flatMap((p) => [p.name, ...p.aliases])])],
    positions: [...new Set(hit.flatMap((p) => (p.position === undefined ? [] : [p.position])))],
  };
}
