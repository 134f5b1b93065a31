package io.tributary.cli;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code bench ingest --source files}: the datagen workload's rows written as headerless CSV files
 * of {@value #ROWS_PER_FILE} rows before the table is created, so the time is the source's reading,
 * parsing and committing alone. The files connector reads with one split. PostgreSQL copies the
 * same CSV text with {@code COPY ... (FORMAT csv)}.
 */
final class FilesIngest implements IngestWorkload {
    private static final long ROWS_PER_FILE = 100_000;

    @Override
    public String name() {
        return "files";
    }

    @Override
    public String columns() {
        return DatagenIngest.COLUMNS_SQL;
    }

    @Override
    public String prepare(Path workDir, String table, long rows, int splits) throws Exception {
        Files.createDirectories(workDir);
        try (BufferedReader lines = new BufferedReader(DatagenIngest.text(rows, ','), 1 << 16)) {
            for (int file = 0; file * ROWS_PER_FILE < rows; file++) {
                Path path = workDir.resolve("part-%05d.csv".formatted(file));
                try (BufferedWriter out = Files.newBufferedWriter(path, StandardCharsets.UTF_8)) {
                    for (long i = 0; i < ROWS_PER_FILE; i++) {
                        String line = lines.readLine();
                        if (line == null) {
                            break;
                        }
                        out.write(line);
                        out.write('\n');
                    }
                }
            }
        }
        return "WITH (connector = 'files', path = '"
                + workDir.toAbsolutePath().toString().replace("'", "''")
                + "', match_pattern = '*.csv') FORMAT PLAIN ENCODE CSV (without_header = 'true')";
    }

    @Override
    public int splits(int requested) {
        return 1;
    }

    @Override
    public String copyOptions() {
        return "(FORMAT csv)";
    }

    @Override
    public Reader copyInput(long rows) {
        return DatagenIngest.text(rows, ',');
    }

    @Override
    public String method() {
        return "tributary: CREATE TABLE ... WITH (connector = 'files') over CSV files written beforehand, until every"
                + " row is committed (the view in the same epochs); postgresql: COPY FROM STDIN (FORMAT csv) of the"
                + " same CSV text (+ REFRESH MATERIALIZED VIEW)";
    }
}
