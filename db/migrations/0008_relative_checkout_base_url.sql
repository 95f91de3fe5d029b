-- The demo's hosted checkout was stored as http://localhost:3000/checkout, dead on any other
-- origin; a path is now made absolute by the API from the public or request origin.
UPDATE `sites` SET `checkout_base_url` = '/checkout' WHERE `checkout_base_url` = 'http://localhost:3000/checkout';
