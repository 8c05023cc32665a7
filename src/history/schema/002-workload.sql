-- 002-workload.sql: runs.workload, what defines a run's workload; an
-- index that answers `list` alone.
--
-- The options under which two runs measure the same thing (as
-- dbench-compare judges: loadfile, clients, backend, sync flags, ...; a
-- disk test: its block size, size, repeat count and cache dropping), as
-- one JSON object text, so that `dbench-history trend` and `servers` can
-- tell a change of workload from a change of performance, and find a
-- label's runs of one workload through an index.  The loadfile counts by
-- its content (CRC-32), not its path: the same file installed elsewhere
-- is the same workload.  A VIRTUAL column (ALTER TABLE cannot add a
-- STORED one), so that runs saved under schema 1 have it too.

ALTER TABLE runs ADD COLUMN workload TEXT GENERATED ALWAYS AS (
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
) VIRTUAL;

CREATE INDEX runs_label_workload ON runs (label, workload, started_utc);

-- `dbench-history list` reads this index only, never the rows (whose
-- documents make a cold scan of the table slow)
CREATE INDEX runs_list ON runs (started_utc, label, host, kind, clients,
				mb_per_s, exit_status, group_id, seq);
