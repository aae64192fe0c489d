// Maintained name lists for the entity types no offline model recognises (EVENT, WORK_OF_ART,
// PRODUCT) and well-known organisations compromise's lexicon misses. Matched case-sensitively on
// word boundaries. Add names here; each list is plain data.
export const EVENTS = [
  'World Cup', 'FIFA World Cup', 'Olympic Games', 'Olympics', 'Winter Olympics', 'Paralympics', 'Super Bowl', 'Wimbledon',
  'Tour de France', 'US Open', 'French Open', 'Australian Open', 'Champions League', 'Ryder Cup', 'Boston Marathon',
  'London Marathon', 'New York Marathon', 'Grand Prix', 'Cannes Film Festival', 'Venice Film Festival', 'Sundance Film Festival',
  'Academy Awards', 'Oscars', 'Grammy Awards', 'Grammys', 'Golden Globes', 'Nobel Prize ceremony', 'Eurovision Song Contest', 'Eurovision',
  'Coachella', 'Glastonbury', 'Burning Man', 'Oktoberfest', 'Mardi Gras', 'Carnival', 'Black Friday', 'Cyber Monday', 'Prime Day',
  'World War I', 'World War II', 'First World War', 'Second World War', 'Cold War', 'Vietnam War', 'Korean War', 'Civil War',
  'American Civil War', 'Gulf War', 'French Revolution', 'American Revolution', 'Russian Revolution', 'Industrial Revolution',
  'Great Depression', 'Holocaust', 'Renaissance', 'Reformation', 'Moon landing', 'Apollo 11', 'Brexit', 'Arab Spring',
  'World Economic Forum', 'Davos', 'G7 summit', 'G20 summit', 'COP26', 'COP27', 'COP28', 'Web Summit', 'CES', 'Comic-Con',
  'TED conference', 'TEDx', 'Thanksgiving', 'Christmas', 'Easter', 'Ramadan', 'Diwali', 'Hanukkah', 'Passover', 'Chinese New Year',
  'Lunar New Year', "New Year's Eve", 'Halloween', 'Independence Day', 'Bastille Day', 'Day of the Dead',
];

export const WORKS_OF_ART = [
  'Mona Lisa', 'The Last Supper', 'The Starry Night', 'Starry Night', 'Guernica', 'The Scream', 'The Persistence of Memory',
  'Girl with a Pearl Earring', 'The Night Watch', 'The Birth of Venus', 'The School of Athens', 'American Gothic', 'The Kiss',
  'Sunflowers', 'Water Lilies', 'David', 'The Thinker', 'Hamlet', 'Macbeth', 'Othello', 'King Lear', 'Romeo and Juliet',
  'A Midsummer Night\'s Dream', 'The Tempest', 'War and Peace', 'Anna Karenina', 'Crime and Punishment', 'Don Quixote',
  'Pride and Prejudice', 'Jane Eyre', 'Wuthering Heights', 'Moby-Dick', 'Moby Dick', 'The Great Gatsby', 'To Kill a Mockingbird',
  'Nineteen Eighty-Four', 'Animal Farm', 'Brave New World', 'The Catcher in the Rye', 'Ulysses', 'The Odyssey', 'The Iliad',
  'The Divine Comedy', 'Les Misérables', 'One Hundred Years of Solitude', 'The Lord of the Rings', 'The Hobbit', 'Harry Potter',
  'The Little Prince', 'Frankenstein', 'Dracula', 'The Origin of Species', 'On the Origin of Species', 'The Art of War',
  'Star Wars', 'The Godfather', 'Casablanca', 'Citizen Kane', 'Titanic', 'The Matrix', 'Jurassic Park', 'Pulp Fiction',
  'The Wizard of Oz', 'Gone with the Wind', 'Schindler\'s List', 'Game of Thrones', 'Breaking Bad', 'The Simpsons',
  'Fifth Symphony', 'Ninth Symphony', 'Moonlight Sonata', 'The Four Seasons', 'Swan Lake', 'The Nutcracker', 'Bohemian Rhapsody',
  'Imagine', 'Thriller', 'Abbey Road', 'Sgt. Pepper\'s Lonely Hearts Club Band', 'The Dark Side of the Moon',
];

export const PRODUCTS = [
  'iPhone', 'iPad', 'iPod', 'MacBook', 'MacBook Air', 'MacBook Pro', 'iMac', 'Apple Watch', 'AirPods', 'Vision Pro',
  'Galaxy S24', 'Galaxy S23', 'Galaxy Note', 'Pixel', 'Surface Pro', 'Xbox', 'Xbox One', 'Xbox Series X', 'PlayStation',
  'PlayStation 4', 'PlayStation 5', 'Nintendo Switch', 'Game Boy', 'Kindle', 'Echo Dot', 'Alexa', 'Siri', 'Google Maps', 'Gmail',
  'YouTube', 'Android', 'Windows', 'Windows 10', 'Windows 11', 'macOS', 'Linux', 'Office 365', 'Microsoft Office', 'Excel',
  'PowerPoint', 'Photoshop', 'ChatGPT', 'Model 3', 'Model S', 'Model X', 'Model Y', 'Cybertruck', 'Prius', 'Corolla',
  'Mustang', 'Beetle', 'Walkman', 'Coca-Cola', 'Pepsi', 'Big Mac', 'Nutella', 'Lego', 'Rubik\'s Cube', 'Post-it',
];

export const ORGANIZATIONS = [
  'Apple', 'Google', 'Alphabet', 'Microsoft', 'Amazon', 'Meta', 'Facebook', 'Tesla', 'Netflix', 'Samsung', 'Sony', 'IBM',
  'Intel', 'Nvidia', 'OpenAI', 'Twitter', 'Uber', 'Airbnb', 'Spotify', 'Toyota', 'Volkswagen', 'BMW', 'Nestlé', 'Unilever',
  'United Nations', 'European Union', 'World Health Organization', 'WHO', 'NATO', 'UNESCO', 'UNICEF', 'NASA', 'FBI', 'CIA',
  'World Bank', 'International Monetary Fund', 'IMF', 'Red Cross', 'Greenpeace', 'Harvard', 'Harvard University', 'MIT',
  'Stanford', 'Stanford University', 'Oxford University', 'University of Oxford', 'Cambridge University', 'BBC', 'CNN',
  'The New York Times', 'TED', 'Wikipedia', 'Goldman Sachs', 'JPMorgan', 'Federal Reserve', 'European Central Bank',
];
