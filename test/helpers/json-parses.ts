// The work a pure function does, counted rather than timed: how many texts JSON.parse read.

/** How many times JSON.parse reads a text of at least `min` characters while `f` runs. */
export function bigParses(min: number, f: () => void): number {
  const parse = JSON.parse;
  let n = 0;
  JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (text.length >= min) n++;
    return parse(text, reviver);
  };
  try {
    f();
  } finally {
    JSON.parse = parse;
  }
  return n;
}
