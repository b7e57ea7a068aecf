CREATE TABLE games (
	id VARCHAR(32) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	players INTEGER NOT NULL, 
	seed BIGINT NOT NULL, 
	options JSON NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	move_count INTEGER NOT NULL, 
	to_move INTEGER NOT NULL, 
	result JSON, 
	created_at TIMESTAMP WITH TIME ZONE NOT NULL, 
	updated_at TIMESTAMP WITH TIME ZONE NOT NULL, 
	seed_shown BOOLEAN NOT NULL, 
	creator_hash VARCHAR(64), 
	hints_allowed BOOLEAN NOT NULL, 
	PRIMARY KEY (id)
);

CREATE INDEX ix_games_status ON games (status);

CREATE TABLE actions (
	game_id VARCHAR(32) NOT NULL, 
	idx INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	action VARCHAR(512) NOT NULL, 
	created_at TIMESTAMP WITH TIME ZONE NOT NULL, 
	PRIMARY KEY (game_id, idx), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);

CREATE TABLE bot_leases (
	game_id VARCHAR(32) NOT NULL, 
	holder VARCHAR(64) NOT NULL, 
	expires_at TIMESTAMP WITH TIME ZONE NOT NULL, 
	PRIMARY KEY (game_id), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);

CREATE TABLE seats (
	game_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	name VARCHAR(64) NOT NULL, 
	bot VARCHAR(128), 
	token_hash VARCHAR(64), 
	joined BOOLEAN NOT NULL, 
	claim_hash VARCHAR(64), 
	PRIMARY KEY (game_id, seat), 
	FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE
);

CREATE INDEX ix_seats_token_hash ON seats (token_hash);

CREATE TABLE chat_lines (
	id SERIAL NOT NULL, 
	game_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	text VARCHAR(2000) NOT NULL, 
	at TIMESTAMP WITH TIME ZONE NOT NULL, 
	PRIMARY KEY (id)
);

CREATE INDEX ix_chat_lines_game_id ON chat_lines (game_id);

CREATE TABLE game_tables (
	game_id VARCHAR(32) NOT NULL, 
	clock_seconds INTEGER, 
	deadline TIMESTAMP WITH TIME ZONE, 
	deadline_move INTEGER, 
	stand_ins JSON NOT NULL, 
	rematch VARCHAR(32), 
	rematch_key VARCHAR(64), 
	PRIMARY KEY (game_id)
);

