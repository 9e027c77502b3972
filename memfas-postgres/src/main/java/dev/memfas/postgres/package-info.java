/** A memory store in PostgreSQL, shared by many processes and machines: {@link dev.memfas.postgres.PostgresMemoryStore}. */
package dev.memfas.postgres;
