"""Hand-written rules, one per level and taxonomy type, with items on both sides: what the scripted game master
writes and generates, and the ground of the judge's calibration set (each with two right rewordings, a near miss
and a vague guess). Written for playeval."""

from __future__ import annotations

from dataclasses import dataclass

from playeval.games.dynamic_picnic.taxonomy import RuleType


@dataclass(frozen=True)
class ScriptedRule:
    level: int
    type: RuleType
    statement: str
    positives: tuple[str, ...]
    negatives: tuple[str, ...]
    paraphrases: tuple[str, str]
    near_miss: str
    vague: str


def _items(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


SCRIPTED_RULES: tuple[ScriptedRule, ...] = (
    ScriptedRule(1, "attribute", "Items whose name has the same letter twice in a row",
                 _items("apple, balloon, coffee, cookie, kettle, pillow, bottle, spoon, sunglasses, carrot, puzzle, "
                        "scissors, butter, muffin"),
                 _items("bread, grape, banana, sandwich, blanket, lemon, napkin, orange, radio, camera, guitar, "
                        "plate, fork, candle"),
                 ("things with a doubled letter in their name", "words containing two identical letters side by side"),
                 "items whose name repeats a letter somewhere", "things with interesting names"),
    ScriptedRule(1, "categorical", "Fruits",
                 _items("apple, banana, grape, pear, cherry, mango, peach, plum, kiwi, orange, lemon, strawberry, "
                        "watermelon, apricot"),
                 _items("carrot, potato, bread, cheese, onion, lettuce, sausage, cookie, rice, spinach, broccoli, "
                        "celery, ham, pasta"),
                 ("any kind of fruit", "fruit"), "fruits and vegetables", "things to eat"),
    ScriptedRule(1, "logical", "Items made of metal or glass",
                 _items("metal spoon, fork, knife, glass jar, wine glass, glass bottle, key, coin, scissors, "
                        "can opener, mirror, tin can, kettle, frying pan"),
                 _items("napkin, blanket, sandwich, paper plate, wooden spoon, straw hat, cotton towel, plastic cup, "
                        "book, pillow, wicker basket, apple, candle, rubber ball"),
                 ("things made from glass or from metal", "metal objects and glass objects"),
                 "things made of metal", "hard things"),
    ScriptedRule(1, "relational", "Items you would find in a kitchen",
                 _items("frying pan, kettle, spatula, cutting board, toaster, whisk, oven mitt, ladle, colander, "
                        "rolling pin, dish soap, saucepan, blender, teapot"),
                 _items("toothbrush, pillow, lawn mower, shampoo, bicycle, bed sheet, garden hose, hair dryer, "
                        "shower curtain, alarm clock, sofa, wardrobe, snow shovel, tent"),
                 ("kitchen things", "things that belong in a kitchen"), "electrical appliances",
                 "household stuff"),
    ScriptedRule(1, "semantic", "Items associated with the beach",
                 _items("sunscreen, beach towel, bucket and spade, flip-flops, surfboard, swimsuit, seashell, "
                        "sunglasses, beach umbrella, snorkel, sun hat, swim ring, sand, beach ball"),
                 _items("snow boots, scarf, office chair, textbook, winter coat, toaster, mittens, stapler, "
                        "firewood, hot water bottle, ski pole, desk lamp, radiator, calculator"),
                 ("things you take to the beach", "beach things"), "things for swimming", "fun things"),
    ScriptedRule(2, "attribute", "Items whose name starts and ends with the same letter",
                 _items("tent, toast, tablet, trumpet, kayak, scissors, sandals, socks, stickers, straws, gong, "
                        "radar, ticket, teapot"),
                 _items("apple, bread, candle, lemon, basket, cushion, guitar, melon, kite, blanket, camera, "
                        "frisbee, hammock, pillow"),
                 ("the first letter of the name is also its last letter",
                  "names beginning and ending with the same letter"),
                 "names that start with t or s", "words with a pattern"),
    ScriptedRule(2, "categorical", "Musical instruments you play by blowing into them",
                 _items("flute, trumpet, clarinet, saxophone, harmonica, recorder, tuba, trombone, oboe, bagpipes, "
                        "kazoo, bassoon, french horn, panpipes"),
                 _items("guitar, violin, piano, drum, harp, banjo, xylophone, cello, tambourine, ukulele, triangle, "
                        "cymbals, mandolin, maracas"),
                 ("wind instruments", "instruments played with your breath"), "musical instruments",
                 "things that make sounds"),
    ScriptedRule(2, "logical", "Items that are edible but not sweet",
                 _items("cheese, bread, carrot, pickle, potato chips, olives, ham, cucumber, boiled egg, "
                        "salted nuts, cracker, tomato, hummus, pretzel"),
                 _items("chocolate, cake, honey, candy, cookie, donut, ice cream, jam, napkin, plate, fork, "
                        "blanket, lollipop, sunscreen"),
                 ("food that is not sweet", "savoury things you can eat"), "anything you can eat", "picnic snacks"),
    ScriptedRule(2, "relational", "Items smaller than a shoe box",
                 _items("key, coin, ring, pencil, spoon, apple, egg, phone, eraser, battery, lip balm, teabag, "
                        "marble, matchbox"),
                 _items("bicycle, sofa, refrigerator, tent, ladder, surfboard, guitar, car tyre, wardrobe, canoe, "
                        "television, bed, barbecue grill, suitcase"),
                 ("things that would fit inside a shoebox", "objects smaller than a box for shoes"),
                 "things that fit in a pocket", "everyday objects"),
    ScriptedRule(2, "semantic", "Items linked with the winter holidays",
                 _items("candy cane, tinsel, mistletoe, snow globe, gingerbread man, stocking, wreath, sleigh bell, "
                        "christmas bauble, advent calendar, eggnog, yule log, nutcracker, menorah"),
                 _items("sunscreen, beach ball, easter egg, kite, watermelon, lawn chair, swimsuit, paper fan, "
                        "garden hose, flip-flops, popsicle, sandcastle, sun hat, pumpkin lantern"),
                 ("things that remind you of Christmas and Hanukkah", "December holiday things"),
                 "Christmas decorations", "things people buy"),
    ScriptedRule(3, "attribute", "Items whose name has exactly three syllables",
                 _items("banana, tomato, umbrella, hamburger, potato, pineapple, telephone, basketball, strawberry, "
                        "bicycle, computer, envelope, broccoli, tambourine"),
                 _items("apple, bread, cup, watermelon, sandwich, avocado, harmonica, blanket, lemon, calculator, "
                        "kite, guitar, television, napkin"),
                 ("names of three syllables", "words you say in three beats"),
                 "names with more than two syllables", "long words"),
    ScriptedRule(3, "categorical", "Items that come from trees",
                 _items("apple, walnut, maple syrup, cork, paper, coconut, olive, cinnamon, almond, cherry, lemon, "
                        "acorn, pine cone, chestnut"),
                 _items("potato, strawberry, peanut, rice, carrot, wool, glass, milk, honey, cotton, salt, tomato, "
                        "pumpkin, egg"),
                 ("things that grow on trees or are made from them", "tree products"), "fruits and nuts",
                 "natural things"),
    ScriptedRule(3, "logical", "Items that float on water and are not made of wood",
                 _items("beach ball, rubber duck, ice cube, plastic bottle, life jacket, pool noodle, orange, apple, "
                        "swim ring, ping pong ball, balloon, coconut, candle, sponge"),
                 _items("wooden spoon, log, rock, coin, key, metal spoon, wooden chopsticks, marble, brick, "
                        "wooden paddle, wooden toy boat, anchor, nail, pencil"),
                 ("things that float, except wooden ones", "things that do not sink and are not wooden"),
                 "things that float", "light things"),
    ScriptedRule(3, "relational", "Items that are usually sold in pairs",
                 _items("socks, shoes, gloves, earrings, chopsticks, skis, mittens, flip-flops, boots, "
                        "contact lenses, cufflinks, sandals, ice skates, slippers"),
                 _items("hat, scarf, watch, necklace, umbrella, belt, jacket, wallet, backpack, spoon, toothbrush, "
                        "pillow, tie, bracelet"),
                 ("things that come as a pair", "things you buy two at a time, as a pair"), "things you wear",
                 "clothes and accessories"),
    ScriptedRule(3, "semantic", "Items that appear in well-known fairy tales",
                 _items("glass slipper, poisoned apple, spinning wheel, magic beans, golden egg, magic mirror, "
                        "pumpkin carriage, porridge, golden harp, breadcrumbs, beanstalk, red hood, "
                        "seven-league boots, golden ball"),
                 _items("smartphone, laptop, credit card, microwave, headphones, toaster, parking meter, printer, "
                        "stapler, garden hose, tennis racket, bicycle, calculator, vacuum cleaner"),
                 ("objects from fairy tales", "things in classic fairy stories"), "old-fashioned objects",
                 "interesting objects"),
)
