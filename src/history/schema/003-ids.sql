-- 003-ids.sql: ids are never handed out again.  groups.id and runs.id
-- become AUTOINCREMENT, so that the id of a run (or group) removed by
-- `dbench-history rm` is not given to a later run: a run id written in
-- a note or a script keeps naming that run, or none.
--
-- SQLite cannot add AUTOINCREMENT to a table: both tables are made anew
-- and their rows copied (the writer columns only: the rest is derived),
-- as SQLite's documentation describes for schema changes.  The openers
-- (dbench's saver, dbench-history) run the schema files with foreign
-- keys off, so that dropping the old tables does not cascade to the
-- derived tables (targets, ops, hosts, metrics), which stay as they are
-- and reference the new tables by name.  The indexes and triggers of
-- 001 and 002 are made again, unchanged.  Copying the rows sets
-- sqlite_sequence to the highest id in use (renaming carries it over).

CREATE TABLE groups_new (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	kind TEXT NOT NULL CHECK (kind IN ('single', 'repeat', 'curve')),
	label TEXT NOT NULL,
	created_utc TEXT NOT NULL,
	summary_json TEXT CHECK (summary_json IS NULL OR json_valid(summary_json))
);
INSERT INTO groups_new (id, kind, label, created_utc, summary_json)
	SELECT id, kind, label, created_utc, summary_json FROM groups;
DROP TABLE groups;
ALTER TABLE groups_new RENAME TO groups;
CREATE INDEX groups_label ON groups (label, created_utc);

CREATE TABLE runs_new (
	id INTEGER PRIMARY KEY AUTOINCREMENT,
	group_id INTEGER NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	label TEXT NOT NULL,
	saved_utc TEXT NOT NULL,
	exit_status INTEGER NOT NULL,
	warnings_json TEXT NOT NULL DEFAULT '[]'
		CHECK (json_valid(warnings_json)
		       AND json_type(warnings_json) = 'array'),

	-- derived (result_json, declared last, is stored last in each row:
	-- a query of these columns never reads the document's pages)
	-- the clients' release (a disk test: its start), else the save
	started_utc TEXT GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.start_time'), saved_utc)
	) STORED,
	kind TEXT GENERATED ALWAYS AS (
		CASE WHEN json_type(result_json, '$.disk_test') IS NOT NULL
		     THEN 'disk_test' ELSE 'load' END
	) STORED,
	host TEXT GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.host.hostname'),
			 json_extract(result_json, '$.hosts[0].hostname'))
	) STORED,
	kernel TEXT GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.host.kernel_release'),
			 json_extract(result_json, '$.hosts[0].kernel_release'))
	) STORED,
	cpu_model TEXT GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.host.cpu_model'),
			 json_extract(result_json, '$.hosts[0].cpu_model'))
	) STORED,
	cpus INTEGER GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.host.cpus'),
			 json_extract(result_json, '$.hosts[0].cpus'))
	) STORED,
	memory_bytes INTEGER GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.host.memory_bytes'),
			 json_extract(result_json, '$.hosts[0].memory_bytes'))
	) STORED,
	backend TEXT GENERATED ALWAYS AS (
		json_extract(result_json, '$.options.backend')
	) STORED,
	server_url TEXT GENERATED ALWAYS AS (
		json_extract(result_json, '$.server.url')
	) STORED,
	loadfile_path TEXT GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.loadfiles[0].path'),
			 json_extract(result_json, '$.options.loadfiles[0]'))
	) STORED,
	loadfile_sha256 TEXT GENERATED ALWAYS AS (
		json_extract(result_json, '$.loadfiles[0].sha256')
	) STORED,
	version TEXT GENERATED ALWAYS AS (
		json_extract(result_json, '$.tool.version')
	) STORED,
	-- a JSON array as text (json_extract gives arrays as JSON)
	command_line TEXT GENERATED ALWAYS AS (
		json_extract(result_json, '$.command_line')
	) STORED,
	clients INTEGER GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.result.clients'),
			 json_extract(result_json, '$.options.clients'))
	) STORED,
	-- a load run: the reported phase's seconds; a disk test: its length
	seconds REAL GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.result.seconds'),
			 (julianday(json_extract(result_json, '$.end_time')) -
			  julianday(json_extract(result_json, '$.start_time')))
			 * 86400.0)
	) STORED,
	-- a disk test has no single figure: its figures are in metrics
	mb_per_s REAL GENERATED ALWAYS AS (
		json_extract(result_json, '$.result.throughput_mb_per_s')
	) STORED,
	-- result.ops_per_s where the document has it, else the reported
	-- phase's ops_per_s (phases holds warmup and execute at most)
	ops_per_s REAL GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.result.ops_per_s'),
			 CASE json_extract(result_json, '$.result.phase')
			 WHEN json_extract(result_json, '$.phases[0].name')
			 THEN json_extract(result_json, '$.phases[0].ops_per_s')
			 WHEN json_extract(result_json, '$.phases[1].name')
			 THEN json_extract(result_json, '$.phases[1].ops_per_s')
			 END)
	) STORED,
	interrupted INTEGER GENERATED ALWAYS AS (
		COALESCE(json_extract(result_json, '$.result.interrupted'),
			 json_extract(result_json, '$.disk_test.interrupted'), 0)
	) STORED,
	result_json TEXT NOT NULL
		CHECK (json_valid(result_json)
		       AND json_type(result_json) = 'object')
	,
	-- 002-workload.sql's column, as it has it
	workload TEXT GENERATED ALWAYS AS (
		CASE kind
		WHEN 'disk_test' THEN json_object(
			'disk_test', 1,
			'block_size_bytes',
			json_extract(result_json, '$.options.block_size_bytes'),
			'size_bytes', json_extract(result_json, '$.options.size_bytes'),
			'repeat', json_extract(result_json, '$.options.repeat'),
			'drop_caches',
			json_extract(result_json, '$.options.drop_caches'))
		ELSE json_object(
			'loadfiles',
			json_array_length(result_json, '$.options.loadfiles'),
			'loadfile_crc32',
			json_extract(result_json, '$.loadfiles[0].crc32'),
			'clients', json_extract(result_json, '$.options.clients'),
			'clients_per_process',
			json_extract(result_json, '$.options.clients_per_process'),
			'backend', json_extract(result_json, '$.options.backend'),
			'sync_open', json_extract(result_json, '$.options.sync_open'),
			'sync_dirs', json_extract(result_json, '$.options.sync_dirs'),
			'fsync_writes',
			json_extract(result_json, '$.options.fsync_writes'),
			'xattr', json_extract(result_json, '$.options.xattr'),
			'target_rate_mb_per_s',
			json_extract(result_json, '$.options.target_rate_mb_per_s'),
			'trunc_io', json_extract(result_json, '$.options.trunc_io'),
			'fake_io', json_extract(result_json, '$.options.fake_io'),
			'one_byte_write_fix',
			json_extract(result_json, '$.options.one_byte_write_fix'),
			'no_resolve', json_extract(result_json, '$.options.no_resolve'),
			'stat_check', json_extract(result_json, '$.options.stat_check'))
		END
	) VIRTUAL
);
INSERT INTO runs_new (id, group_id, seq, label, saved_utc, exit_status,
		      warnings_json, result_json)
	SELECT id, group_id, seq, label, saved_utc, exit_status,
	       warnings_json, result_json FROM runs;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
CREATE INDEX runs_label_started ON runs (label, started_utc);
CREATE INDEX runs_started ON runs (started_utc);
CREATE INDEX runs_group ON runs (group_id, seq);
CREATE INDEX runs_host ON runs (host, started_utc);
CREATE INDEX runs_label_workload ON runs (label, workload, started_utc);

-- `dbench-history list` reads this index only, never the rows (whose
-- documents make a cold scan of the table slow)
CREATE INDEX runs_list ON runs (started_utc, label, host, kind, clients,
				mb_per_s, exit_status, group_id, seq);

CREATE TRIGGER runs_derive AFTER INSERT ON runs
BEGIN
	INSERT INTO targets (run_id, seq, host, path, fs_type, mount_source,
			     mount_options, device_model, free_bytes)
	SELECT NEW.id, d.key,
	       COALESCE(json_extract(d.value, '$.host'), NEW.host),
	       json_extract(d.value, '$.path'),
	       json_extract(d.value, '$.fs_type'),
	       json_extract(d.value, '$.source'),
	       json_extract(d.value, '$.mount_options'),
	       json_extract(d.value, '$.device_model'),
	       COALESCE(json_extract(d.value, '$.free_bytes'),
			json_extract(NEW.result_json, '$.disk_test.directories['
				     || d.key || '].free_bytes'))
	FROM json_each(NEW.result_json, '$.directories') AS d;

	INSERT INTO ops (run_id, seq, target_seq, name, count, errors,
			 mean_ms, p50_ms, p99_ms, max_ms)
	SELECT NEW.id, o.key, NULL, json_extract(o.value, '$.name'),
	       json_extract(o.value, '$.count'),
	       json_extract(o.value, '$.errors'),
	       json_extract(o.value, '$.avg_ms'),
	       (SELECT json_extract(p.value, '$.ms')
		FROM json_each(o.value, '$.percentiles') AS p
		WHERE json_extract(p.value, '$.percentile') = 50),
	       (SELECT json_extract(p.value, '$.ms')
		FROM json_each(o.value, '$.percentiles') AS p
		WHERE json_extract(p.value, '$.percentile') = 99),
	       json_extract(o.value, '$.max_ms')
	FROM json_each(NEW.result_json, '$.operations') AS o
	WHERE json_type(o.value, '$.name') = 'text';

	INSERT INTO ops (run_id, seq, target_seq, name, count, errors,
			 mean_ms, p50_ms, p99_ms, max_ms)
	SELECT NEW.id, d.key * 100 + m.key, d.key,
	       json_extract(m.value, '$.name'),
	       json_extract(m.value, '$.count'), NULL, NULL,
	       (SELECT json_extract(p.value, '$.ms')
		FROM json_each(m.value, '$.percentiles') AS p
		WHERE json_extract(p.value, '$.percentile') = 50),
	       (SELECT json_extract(p.value, '$.ms')
		FROM json_each(m.value, '$.percentiles') AS p
		WHERE json_extract(p.value, '$.percentile') = 99),
	       json_extract(m.value, '$.max_ms')
	FROM json_each(NEW.result_json, '$.disk_test.directories') AS d,
	     json_each(d.value, '$.measurements') AS m
	WHERE json_type(m.value, '$.name') = 'text'
	  AND json_extract(m.value, '$.count') > 0;

	INSERT INTO hosts (run_id, rank, hostname, kernel, cpu_model, cpus,
			   memory_bytes)
	SELECT NEW.id, COALESCE(json_extract(h.value, '$.rank'), h.key),
	       json_extract(h.value, '$.hostname'),
	       json_extract(h.value, '$.kernel_release'),
	       json_extract(h.value, '$.cpu_model'),
	       json_extract(h.value, '$.cpus'),
	       json_extract(h.value, '$.memory_bytes')
	FROM json_each(NEW.result_json, '$.hosts') AS h;

	INSERT INTO hosts (run_id, rank, hostname, kernel, cpu_model, cpus,
			   memory_bytes)
	SELECT NEW.id, 0, NEW.host, NEW.kernel, NEW.cpu_model, NEW.cpus,
	       NEW.memory_bytes
	WHERE json_type(NEW.result_json, '$.hosts') IS NULL
	  AND json_type(NEW.result_json, '$.host') = 'object';

	INSERT INTO metrics (run_id, name, value, unit, higher_is_better)
	SELECT NEW.id, 'mb_per_s', NEW.mb_per_s, 'MB/s', 1
	WHERE NEW.mb_per_s IS NOT NULL;
	INSERT INTO metrics (run_id, name, value, unit, higher_is_better)
	SELECT NEW.id, 'ops_per_s', NEW.ops_per_s, 'ops/s', 1
	WHERE NEW.ops_per_s IS NOT NULL;
	INSERT INTO metrics (run_id, name, value, unit, higher_is_better)
	SELECT NEW.id, 'max_latency_ms',
	       json_extract(NEW.result_json, '$.result.max_latency_ms'), 'ms', 0
	WHERE json_type(NEW.result_json, '$.result.max_latency_ms')
	      IN ('integer', 'real');

	-- a disk test: each measured figure (not "not evicted", "not
	-- supported", "failed")
	INSERT INTO metrics (run_id, name, target_seq, target, value, unit,
			     higher_is_better, samples_json)
	SELECT NEW.id, json_extract(m.value, '$.name'), d.key,
	       json_extract(d.value, '$.path'),
	       json_extract(m.value, '$.mb_per_s_median'), 'MB/s', 1,
	       json_extract(m.value, '$.mb_per_s')
	FROM json_each(NEW.result_json, '$.disk_test.directories') AS d,
	     json_each(d.value, '$.measurements') AS m
	WHERE json_extract(m.value, '$.state') = 'measured'
	  AND json_type(m.value, '$.name') = 'text'
	  AND json_type(m.value, '$.mb_per_s_median') IN ('integer', 'real');
END;

-- the derived tables follow the document: it is never rewritten
CREATE TRIGGER runs_result_fixed BEFORE UPDATE OF result_json ON runs
BEGIN
	SELECT RAISE(ABORT, 'runs.result_json cannot be changed');
END;

