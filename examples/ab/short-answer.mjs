// A scorer for `gramkit ab --scorer`: 1 for an answer of at most three words, less the longer it is.
export default (run) => {
  if (!run.completed) return { score: 0, reason: 'no answer' };
  const words = (run.content ?? '').trim().split(/\s+/).length;
  return words <= 3 ? { score: 1 } : { score: 3 / words, reason: `${words} words` };
};
