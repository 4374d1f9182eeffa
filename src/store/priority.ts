// Priority rules, per locator: an ordered list. A location's rank is the index of the first rule it
// matches (unmatched: after every rule); sort=priority orders by rank, then distance or name.

export type PriorityRule =
  | { tag: string } // the location has this tag (case-insensitive)
  | { custom_field: string; value: string } // this custom field has exactly this value
  | { ids: string[] } // the location is one of these
