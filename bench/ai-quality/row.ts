/** One printed figure of npm run bench:ai-quality: what was measured, the result, the target ('' when none). */
export interface Row {
  figure: string;
  value: string;
  target: string;
}
