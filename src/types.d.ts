// Markdown files are embedded as text by Bun's text loader (`with { type: "text" }`).
declare module "*.md" {
  const text: string;
  export default text;
}
