// Type declarations of model packages that ship none.
declare module 'vader-sentiment' {
  const vader: { SentimentIntensityAnalyzer: { polarity_scores(text: string): { neg: number; neu: number; pos: number; compound: number } } };
  export default vader;
}

declare module 'sentiment' {
  export default class Sentiment {
    analyze(text: string): { score: number; comparative: number };
  }
}
