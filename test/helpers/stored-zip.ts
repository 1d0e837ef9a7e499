// A zip archive built in the test itself, so that tests of what unzip does need no zip program.

/** A zip archive holding the one file `name`, stored (UnZip reads it; no zip program needed). */
export function storedZip(name: string, text: string): Uint8Array {
  const data = new TextEncoder().encode(text);
  const file = new TextEncoder().encode(name);
  const crc = Bun.hash.crc32(data);
  const local = new DataView(new ArrayBuffer(30));
  const central = new DataView(new ArrayBuffer(46));
  const end = new DataView(new ArrayBuffer(22));
  for (const [view, sig] of [
    [local, 0x04034b50],
    [central, 0x02014b50],
    [end, 0x06054b50],
  ] as const)
    view.setUint32(0, sig, true);
  // local header: version needed, date (1980-01-01), crc, sizes, name length
  local.setUint16(4, 10, true);
  local.setUint16(12, 0x21, true);
  local.setUint32(14, crc, true);
  local.setUint32(18, data.length, true);
  local.setUint32(22, data.length, true);
  local.setUint16(26, file.length, true);
  central.setUint16(4, 20, true);
  central.setUint16(6, 10, true);
  central.setUint16(14, 0x21, true);
  central.setUint32(16, crc, true);
  central.setUint32(20, data.length, true);
  central.setUint32(24, data.length, true);
  central.setUint16(28, file.length, true);
  const centralAt = 30 + file.length + data.length;
  end.setUint16(8, 1, true);
  end.setUint16(10, 1, true);
  end.setUint32(12, 46 + file.length, true);
  end.setUint32(16, centralAt, true);
  const parts = [new Uint8Array(local.buffer), file, data, new Uint8Array(central.buffer), file, new Uint8Array(end.buffer)];
  return new Uint8Array(parts.flatMap((p) => [...p]));
}
