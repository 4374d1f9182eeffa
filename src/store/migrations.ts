// Versioned schema. Each entry runs once, in order, inside a transaction; PRAGMA user_version
// records how many have run. Never edit a shipped entry: append a new one.

export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE locators (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    public_token TEXT NOT NULL UNIQUE,
    active INTEGER NOT NULL DEFAULT 1,
    query_api_enabled INTEGER NOT NULL DEFAULT 0,
    referrers TEXT NOT NULL DEFAULT '[]',          -- JSON array of hosts or *.host
    default_radius REAL,                            -- in default_unit; NULL: 25
    default_unit TEXT NOT NULL DEFAULT 'miles' CHECK (default_unit IN ('miles', 'km')),
    rate_limit INTEGER NOT NULL DEFAULT 1000,       -- public requests per minute per token
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT;

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    locator_id TEXT NOT NULL REFERENCES locators(id) ON DELETE CASCADE,
    key_hash TEXT NOT NULL UNIQUE,                  -- SHA-256 hex of the key; the key itself is never stored
    prefix TEXT NOT NULL,                           -- display prefix, e.g. sk_AbCd…
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
    expires_at TEXT,
    last_used_at TEXT,
    exposed_at TEXT,                                -- seen in a public request: rotate it
    created_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX api_keys_by_locator ON api_keys(locator_id);

  CREATE TABLE locations (
    seq INTEGER PRIMARY KEY,                        -- insertion order: stable list paging
    id TEXT NOT NULL UNIQUE,
    locator_id TEXT NOT NULL REFERENCES locators(id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('published', 'draft')),
    name TEXT NOT NULL,
    address TEXT NOT NULL,
    lat REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
    lng REAL NOT NULL CHECK (lng BETWEEN -180 AND 180),
    description TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '[]',                -- JSON array of strings, in the case sent
    contact TEXT NOT NULL DEFAULT '{}',             -- JSON objects; unset keys absent
    social TEXT NOT NULL DEFAULT '{}',
    hours TEXT NOT NULL DEFAULT '{}',
    custom_fields TEXT NOT NULL DEFAULT '{}',
    image_url TEXT NOT NULL DEFAULT '',
    geocode_precision TEXT,                         -- NULL when the caller sent coordinates
    geocode_source TEXT,
    address_parts TEXT NOT NULL DEFAULT '{}',       -- JSON: street, city, region, postcode, country
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX locations_by_locator ON locations(locator_id, status, seq);

  CREATE TABLE custom_fields (
    locator_id TEXT NOT NULL REFERENCES locators(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL CHECK (type IN ('text', 'number', 'url', 'email', 'phone', 'button', 'badge')),
    label TEXT,
    color TEXT,
    position INTEGER NOT NULL,
    PRIMARY KEY (locator_id, id)
  ) STRICT;

  CREATE TABLE filter_groups (
    locator_id TEXT NOT NULL REFERENCES locators(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    label TEXT NOT NULL,
    single_select INTEGER NOT NULL DEFAULT 0,
    inline INTEGER NOT NULL DEFAULT 0,
    hidden INTEGER NOT NULL DEFAULT 0,
    hide_in_location_details INTEGER NOT NULL DEFAULT 0,
    position INTEGER NOT NULL,
    PRIMARY KEY (locator_id, id)
  ) STRICT;

  CREATE TABLE filter_tags (
    locator_id TEXT NOT NULL,
    group_id TEXT NOT NULL,
    value TEXT NOT NULL,
    label TEXT NOT NULL,
    color TEXT,
    image TEXT,
    position INTEGER NOT NULL,
    PRIMARY KEY (locator_id, group_id, value),
    FOREIGN KEY (locator_id, group_id) REFERENCES filter_groups(locator_id, id) ON DELETE CASCADE
  ) STRICT;

  CREATE TABLE priority_rules (
    locator_id TEXT NOT NULL REFERENCES locators(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    rule TEXT NOT NULL,                             -- JSON: {tag} | {custom_field, value} | {ids}
    PRIMARY KEY (locator_id, position)
  ) STRICT;

  CREATE TABLE geocode_cache (
    provider TEXT NOT NULL,
    query TEXT NOT NULL,                            -- normalized address
    result TEXT,                                    -- JSON GeocodeResult; NULL: nothing found
    created_at INTEGER NOT NULL,                    -- ms since epoch
    expires_at INTEGER NOT NULL,
    PRIMARY KEY (provider, query)
  ) STRICT;

  -- Every write appends here in its own transaction; other processes replay it to stay in step.
  CREATE TABLE changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    locator_id TEXT NOT NULL,
    entity TEXT NOT NULL CHECK (entity IN ('locator', 'key', 'location', 'custom_field', 'filters', 'priority')),
    entity_id TEXT,
    op TEXT NOT NULL CHECK (op IN ('upsert', 'delete')),
    at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX changes_by_locator ON changes(locator_id, seq);
  `,
  // 2: when a location's coordinates came from a geocoder (some providers' terms limit how long they may be kept).
  `ALTER TABLE locations ADD COLUMN geocoded_at TEXT;`,
  // 3: the values of the custom fields that priority rules test, per published location, for
  // those rules: read from an index, not by a scan of every row (PERF-019). Kept by
  // triggers, so every statement that writes a location keeps it in step, for the fields its
  // locator's rules name (a locator without such rules pays one look at its rules a write);
  // priority.replace fills a field newly named and drops one no longer named. The values as
  // json_extract gives them (a rule's value is compared with "="); a JSON null matches no value,
  // so is left out.
  `
  CREATE TABLE ranked_custom_values (
    locator_id TEXT NOT NULL,
    field TEXT NOT NULL,
    value ANY NOT NULL,
    location_id TEXT NOT NULL,
    PRIMARY KEY (locator_id, field, value, location_id)
  ) STRICT, WITHOUT ROWID;

  CREATE TRIGGER ranked_custom_values_insert AFTER INSERT ON locations
  WHEN new.status = 'published' AND EXISTS (SELECT 1 FROM priority_rules WHERE locator_id = new.locator_id AND json_extract(rule, '$.custom_field') IS NOT NULL) BEGIN
    INSERT OR IGNORE INTO ranked_custom_values SELECT new.locator_id, key, value, new.id FROM json_each(new.custom_fields)
      WHERE type != 'null' AND key IN (SELECT json_extract(rule, '$.custom_field') FROM priority_rules WHERE locator_id = new.locator_id);
  END;
  CREATE TRIGGER ranked_custom_values_update AFTER UPDATE OF status, custom_fields, locator_id, id ON locations
  WHEN EXISTS (SELECT 1 FROM priority_rules WHERE locator_id IN (old.locator_id, new.locator_id) AND json_extract(rule, '$.custom_field') IS NOT NULL) BEGIN
    DELETE FROM ranked_custom_values WHERE old.status = 'published' AND (locator_id, field, value, location_id) IN (SELECT old.locator_id, key, value, old.id FROM json_each(old.custom_fields));
    INSERT OR IGNORE INTO ranked_custom_values SELECT new.locator_id, key, value, new.id FROM json_each(new.custom_fields)
      WHERE new.status = 'published' AND type != 'null' AND key IN (SELECT json_extract(rule, '$.custom_field') FROM priority_rules WHERE locator_id = new.locator_id);
  END;
  CREATE TRIGGER ranked_custom_values_delete AFTER DELETE ON locations
  WHEN old.status = 'published' AND EXISTS (SELECT 1 FROM priority_rules WHERE locator_id = old.locator_id AND json_extract(rule, '$.custom_field') IS NOT NULL) BEGIN
    DELETE FROM ranked_custom_values WHERE (locator_id, field, value, location_id) IN (SELECT old.locator_id, key, value, old.id FROM json_each(old.custom_fields));
  END;

  INSERT OR IGNORE INTO ranked_custom_values
    SELECT l.locator_id, j.key, j.value, l.id FROM locations AS l, json_each(l.custom_fields) AS j
    WHERE l.status = 'published' AND j.type != 'null' AND j.key IN (SELECT json_extract(rule, '$.custom_field') FROM priority_rules AS p WHERE p.locator_id = l.locator_id);
  `,
  // 4: the geocode refresh's reads (at start and every 6 hours; on the serving process with
  // WORKERS=1) from indexes, not by a scan of every row (PERF-036). Partial, so they
  // hold only the rows the refresh reads and other writes pay only the test of their terms: Google's points (the one
  // provider whose terms limit how long a point is kept: geocode/http STORAGE_LIMITS) and its
  // stopgaps, the points a fallback gave while Google failed (their source says so:
  // fallbackSourcePattern in geocode/http/fallback.ts). A query uses such an index only when its
  // WHERE repeats the index's term word for word.
  `
  CREATE INDEX locations_geocoded_by_google ON locations(geocoded_at, id) WHERE geocode_source = 'google';
  CREATE INDEX locations_google_stopgaps ON locations(geocoded_at, id) WHERE geocode_source LIKE '% (fallback: google %';
  `,
  // 5: how far the change log was pruned (changes.prune): the changes up to `through` may be gone,
  // each locator's last one kept. A process that had applied less builds its indexes again.
  `
  CREATE TABLE changes_pruned (id INTEGER PRIMARY KEY CHECK (id = 1), through INTEGER NOT NULL) STRICT;
  INSERT INTO changes_pruned (id, through) VALUES (1, 0);
  `,
  // 6: the chain's own code for a location, unique within its locator (NULL: none); and whether
  // the Query API shows it (off unless the locator turns it on).
  `
  ALTER TABLE locations ADD COLUMN external_id TEXT;
  CREATE UNIQUE INDEX locations_by_external_id ON locations(locator_id, external_id) WHERE external_id IS NOT NULL;
  ALTER TABLE locators ADD COLUMN public_external_id INTEGER NOT NULL DEFAULT 0;
  `,
  // 7: Idempotency-Key answers of the Management API's POSTs, written in the transaction of the
  // write they answer, kept 24 hours (idempotency.prune).
  `
  CREATE TABLE idempotency_keys (
    locator_id TEXT NOT NULL REFERENCES locators(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,                      -- SHA-256 hex of the method, path and body
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (locator_id, key)
  ) STRICT;
  CREATE INDEX idempotency_keys_by_age ON idempotency_keys(created_at);
  `,
  // 8: a locator's changes of one kind, counted in the index without reading the rows: the
  // location changes of a bulk import (changes.locationCount), ~2 ms for 50,000.
  `
  CREATE INDEX changes_by_locator_entity ON changes(locator_id, entity, seq);
  `,
  // 9: a location's time zone when set (NULL: from its coordinates) and its dated exceptions to
  // its weekly hours (JSON: YYYY-MM-DD -> hours text).
  `
  ALTER TABLE locations ADD COLUMN timezone TEXT;
  ALTER TABLE locations ADD COLUMN special_hours TEXT NOT NULL DEFAULT '{}';
  `,
  // 10: the words of a location's town's names, main and other ("koln cologne ..."), which keyword
  // search matches (NULL: not looked up yet; the reverse upkeep fills them, src/locations/town.ts).
  `
  ALTER TABLE locations ADD COLUMN town_names TEXT;
  CREATE INDEX locations_unplaced ON locations(id) WHERE town_names IS NULL;
  `,
  // 11: the language of a locator's own pages when a link asks for none (NULL: English).
  `
  ALTER TABLE locators ADD COLUMN language TEXT CHECK (language IN ('en', 'de', 'fr', 'es', 'it', 'nl'));
  `,
  // 12: what the per-locator write limits read inside the write's transaction, so every process
  // and the CLI see one another's writes: each locator's locations, counted by triggers on every
  // statement that adds or removes one (LOCATOR_MAX_LOCATIONS); and the bytes of Idempotency-Key
  // answers kept, by hour (IDEMPOTENCY_MAX_MB: the last 24 hours' rows are summed), which
  // idempotency.save adds to and idempotency.prune empties.
  `
  CREATE TABLE location_counts (
    locator_id TEXT PRIMARY KEY REFERENCES locators(id) ON DELETE CASCADE,
    n INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  CREATE TRIGGER location_counts_insert AFTER INSERT ON locations BEGIN
    INSERT INTO location_counts (locator_id, n) VALUES (new.locator_id, 1)
      ON CONFLICT (locator_id) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER location_counts_delete AFTER DELETE ON locations BEGIN
    UPDATE location_counts SET n = n - 1 WHERE locator_id = old.locator_id;
  END;
  CREATE TRIGGER location_counts_move AFTER UPDATE OF locator_id ON locations
  WHEN new.locator_id IS NOT old.locator_id BEGIN
    UPDATE location_counts SET n = n - 1 WHERE locator_id = old.locator_id;
    INSERT INTO location_counts (locator_id, n) VALUES (new.locator_id, 1)
      ON CONFLICT (locator_id) DO UPDATE SET n = n + 1;
  END;
  INSERT INTO location_counts (locator_id, n) SELECT locator_id, count(*) FROM locations GROUP BY locator_id;

  CREATE TABLE idempotency_bytes (
    locator_id TEXT NOT NULL REFERENCES locators(id) ON DELETE CASCADE,
    hour INTEGER NOT NULL,                          -- hours since 1970, UTC
    bytes INTEGER NOT NULL,                         -- of the answers kept whole (not those kept as their size)
    PRIMARY KEY (locator_id, hour)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO idempotency_bytes (locator_id, hour, bytes)
    SELECT locator_id, CAST(strftime('%s', created_at) AS INTEGER) / 3600, sum(length(CAST(body AS BLOB)))
    FROM idempotency_keys WHERE body NOT LIKE 'not kept: %' GROUP BY 1, 2;
  `,
  // 13: each location's name as nameKey (core/text.ts) folds it, so a bulk import finds the stored
  // locations of its rows' names by the index (14), not by reading the locator's every row. NULL: a
  // row written otherwise (a hand edit), which every such lookup reads. The rows there are filled
  // by name-keys.ts after this one, in the same transaction; a change to nameKey needs a migration
  // filling them again.
  `
  ALTER TABLE locations ADD COLUMN name_key TEXT;
  `,
  // 14: made after the keys are filled: sorted once, not grown a row at a time.
  `
  CREATE INDEX locations_by_name_key ON locations(locator_id, name_key);
  `,
  // 15: each store code as it is compared (bareCode, core/text.ts: without its invisible
  // characters), so a code's twins are found by the index (16), not by reading the locator's codes.
  // NULL: a row of no code, or inserted otherwise (a hand edit), or one of twins already stored
  // (two codes of a locator that differ by invisible characters alone): every lookup reads those.
  // A code changed by hand in SQL keeps its old key: the edit sets code_key = NULL with it.
  // Filled by code-keys.ts after 17, in the same transaction; a change to bareCode needs a
  // migration filling them again.
  `
  ALTER TABLE locations ADD COLUMN code_key TEXT;
  `,
  // 16: made after the keys are filled. Unique: no write makes twins, whichever process writes;
  // those stored already (unkeyed) keep their codes as written, so their export imports unchanged.
  `
  CREATE UNIQUE INDEX locations_by_code_key ON locations(locator_id, code_key) WHERE code_key IS NOT NULL;
  CREATE INDEX locations_unkeyed_codes ON locations(locator_id, seq) WHERE code_key IS NULL AND external_id IS NOT NULL;
  `,
  // 17: a code changed by a writer that keeps no key (a server of the previous release still
  // running, a hand edit in SQL) loses its key, which would name the old code: the unique index
  // would refuse that code to another store, and a lookup of the new one would miss it. A write of
  // this program that keeps the key with a new code (invisible characters alone changed) sets it
  // again after (locations.ts). The keys are filled again: a joiner that joins no letters (at a
  // code's end, beside a digit) is invisible to bareCode since, as it was before 15.
  `
  UPDATE locations SET code_key = NULL WHERE code_key IS NOT NULL;
  CREATE TRIGGER locations_code_key_follows AFTER UPDATE OF external_id ON locations
  WHEN NEW.code_key IS NOT NULL AND NEW.code_key IS OLD.code_key AND NEW.external_id IS NOT OLD.external_id
  BEGIN
    UPDATE locations SET code_key = NULL WHERE seq = NEW.seq;
  END;
  `,
  // 18: the point a store's new address replaced when a file sent it back beside that address
  // (JSON: {lat, lng, by: {lat, lng}}, \`by\` the point the new address was geocoded to; NULL: none).
  // A row sending it again beside the address now stored is the same stale file, not a pin
  // (locations/bulk-check.ts). It holds while the store is at \`by\`: a writer that knows no such
  // column and moves the store leaves it naming a point the store is not at, which reads as none.
  `
  ALTER TABLE locations ADD COLUMN replaced_point TEXT;
  `,
]

/** The migration (its number, counted from 1) after which name-keys.ts fills the name_key column. */
export const NAME_KEY_MIGRATION = 13

/** The migration after which code-keys.ts fills the code_key column (added by 15). */
export const CODE_KEY_MIGRATION = 17
