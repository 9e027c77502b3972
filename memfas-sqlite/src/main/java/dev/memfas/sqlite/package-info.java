/**
 * The durable SQLite memory store (SqliteMemoryStore); it is built on the MemoryStore contract of memfas-api.
 */
package dev.memfas.sqlite;
