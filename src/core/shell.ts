/** Text as one shell word: as it is when it holds nothing a shell reads, else in single quotes. */
export const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`)
