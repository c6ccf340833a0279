-- The shop's own tables, captured by Debezium (REPLICA IDENTITY FULL: deletes carry the
-- whole row, so the tenant and customer of a deleted row are known).
CREATE TABLE tickets (
    id          serial PRIMARY KEY,
    tenant_id   text NOT NULL DEFAULT 'acme',
    customer_id int  NOT NULL,
    status      text NOT NULL,
    priority    text NOT NULL DEFAULT 'normal',
    subject     text NOT NULL,
    body        text NOT NULL,
    order_id    int,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE orders (
    id          serial PRIMARY KEY,
    tenant_id   text NOT NULL DEFAULT 'acme',
    customer_id int  NOT NULL,
    status      text NOT NULL,
    items       text NOT NULL,
    total       numeric(10, 2) NOT NULL,
    currency    text NOT NULL DEFAULT 'EUR',
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE articles (
    id         serial PRIMARY KEY,
    tenant_id  text NOT NULL DEFAULT 'acme',
    category   text NOT NULL,
    lang       text NOT NULL DEFAULT 'en',
    title      text NOT NULL,
    body       text NOT NULL
);
ALTER TABLE tickets REPLICA IDENTITY FULL;
ALTER TABLE orders REPLICA IDENTITY FULL;
ALTER TABLE articles REPLICA IDENTITY FULL;

INSERT INTO orders (customer_id, status, items, total) VALUES (1001, 'returned', 'Trail running shoes (size 42)', 129.90);
INSERT INTO tickets (customer_id, status, priority, subject, body, order_id)
VALUES (1001, 'open', 'high', 'Refund not received', 'I sent the shoes back on Monday. When do I get my money back?', 1);
INSERT INTO articles (category, title, body) VALUES
 ('refunds', 'Refund policy', 'Refunds go back to the original payment method. An approved refund reaches a card in three to five business days.'),
 ('shipping', 'Delivery times', 'Parcels ship within one business day. Delivery takes two to four business days in Germany.');
