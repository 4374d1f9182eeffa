// Answers kept by key for the texts a file or an export repeats (a few headers, notes, days'
// hours), bounded so that a stream of files holds no more than `most` of them.

/** A pure reading's answers by key: all dropped when `most` are kept; none for a text longer than `longest`. */
export class KeptAnswers<T> {
  private readonly answers = new Map<string, T>()

  constructor(
    private readonly most: number,
    private readonly longest: number,
  ) {}

  /**
   * `key`'s answer, `read(key)`'s when none is kept. `texts`: what the key is made of, each no
   * longer than `longest` for the answer to be kept: a longer one is seldom asked twice.
   */
  of(key: string, read: (key: string) => T, texts: readonly string[] = [key]): T {
    let answer = this.answers.get(key)
    if (answer !== undefined) return answer
    answer = read(key)
    if (texts.every((text) => text.length <= this.longest)) {
      if (this.answers.size >= this.most) this.answers.clear()
      this.answers.set(key, answer)
    }
    return answer
  }
}
