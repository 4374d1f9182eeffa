// A social network profile's address from its handle: what store pages link and what a
// spreadsheet's "@handle" is stored as.

export type SocialNetwork = 'instagram' | 'facebook' | 'twitter'

/**
 * A profile's URL from the handle the Query API shows (the stored URL's last path segment); an
 * all-digit Facebook handle is a profile id (profile.php?id=). '' for no handle.
 */
export function socialUrl(network: SocialNetwork, handle: string): string {
  if (handle === '') return ''
  const h = encodeURIComponent(handle)
  if (network === 'instagram') return `https://www.instagram.com/${h}/`
  if (network === 'twitter') return `https://x.com/${h}`
  return /^\d+$/.test(handle) ? `https://www.facebook.com/profile.php?id=${h}` : `https://www.facebook.com/${h}`
}
