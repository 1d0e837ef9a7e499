// Small valid PDFs written by hand for the tests (nothing copied, no PDF library): a catalog, a
// page tree, `pages` pages each with a text stream, a cross-reference table with the true byte
// offsets and a trailer. `compressed`: the page tree and pages sit in a Flate object stream (PDF 1.5),
// as many producers write them, so only the inflated stream states the count.
import { deflateSync } from "node:zlib";

export function makePdf(pages = 1, opts: { compressed?: boolean; text?: string } = {}): Uint8Array {
  const text = opts.text ?? "Hello from a test PDF";
  const kids = Array.from({ length: pages }, (_, i) => `${4 + 2 * i} 0 R`).join(" ");
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  for (let i = 0; i < pages; i++) {
    const stream = `BT /F1 18 Tf 72 720 Td (${text} - page ${i + 1}) Tj ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  if (opts.compressed) return objectStreamPdf(objects);
  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** The objects but the content streams in one compressed object stream; a cross-reference stream is not written (readers rebuild it; hey never reads it). */
function objectStreamPdf(objects: string[]): Uint8Array {
  const inStream = objects.map((body, i) => ({ n: i + 1, body })).filter((o) => !o.body.includes("stream\n"));
  let header = "";
  let bodies = "";
  for (const o of inStream) {
    header += `${o.n} ${bodies.length} `;
    bodies += `${o.body}\n`;
  }
  const packed = deflateSync(Buffer.from(header + bodies, "latin1"));
  let out = "%PDF-1.5\n";
  objects.forEach((body, i) => {
    if (body.includes("stream\n")) out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  out += `${objects.length + 1} 0 obj\n<< /Type /ObjStm /N ${inStream.length} /First ${header.length} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`;
  return Buffer.concat([Buffer.from(out, "latin1"), packed, Buffer.from("\nendstream\nendobj\n%%EOF\n", "latin1")]);
}
