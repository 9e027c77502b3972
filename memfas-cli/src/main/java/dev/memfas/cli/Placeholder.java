package dev.memfas.cli;
