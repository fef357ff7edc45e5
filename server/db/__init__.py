"""The database below the ORM: threads that keep their connections, SQL built once, timestamps read in C."""
